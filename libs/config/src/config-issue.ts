import { z } from 'zod';

/** The schema of one setting without its default, optional and refinement wrappers. */
function innermost(type: z.ZodTypeAny): z.ZodTypeAny {
  if (type instanceof z.ZodDefault) return innermost(type._def.innerType as z.ZodTypeAny);
  if (type instanceof z.ZodOptional) return innermost(type.unwrap() as z.ZodTypeAny);
  if (type instanceof z.ZodEffects) return innermost(type.innerType() as z.ZodTypeAny);
  return type;
}

const n = (v: number) => v.toLocaleString('en-US').replace(/,/g, '');

/**
 * What a setting must be, as a plain sentence end ("must be a whole number from 1 to 65535"), for
 * the issue zod found with it: numbers, choices and URLs are described by their schema, anything
 * else by the refinement's own message.
 */
export function settingMustBe(field: z.ZodTypeAny | undefined, issue: z.ZodIssue): string {
  const type = field ? innermost(field) : undefined;
  if (type instanceof z.ZodNumber) {
    const what = type.isInt ? 'a whole number' : 'a number';
    const bound = (kind: 'min' | 'max') => {
      const check = type._def.checks.find((c) => c.kind === kind) as
        { value: number; inclusive: boolean } | undefined;
      if (!check) return null;
      const step = type.isInt && !check.inclusive ? 1 : 0;
      return kind === 'min' ? check.value + step : check.value - step;
    };
    const [min, max] = [bound('min'), bound('max')];
    if (min !== null && max !== null) return `must be ${what} from ${n(min)} to ${n(max)}`;
    if (min !== null) return `must be ${what} of ${n(min)} or more`;
    return `must be ${what}`;
  }
  if (type instanceof z.ZodEnum) return `must be one of ${(type.options as string[]).join(', ')}`;
  if (issue.code === 'invalid_string' && issue.validation === 'url')
    return 'must be a URL such as http://127.0.0.1:3000';
  return issue.message;
}
