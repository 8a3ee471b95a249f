import { TSchema, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { z } from 'zod';

/**
 * A compiled (TypeBox) check derived from zod schemas, one per value of a `type` field: true only
 * for a value that zod accepts as it is (strict objects, no coercion, no defaults) and whose
 * strings all pass `storable`, the one refinement the schemas may use. parseWatchEvent takes it
 * as its fast path and asks zod only for values it does not pass, so rejections keep zod's params
 * and messages. A zod construct the conversion does not know fails loudly when it is compiled.
 */
export function compileTypedCheck(
  byType: Record<string, z.AnyZodObject>,
  storable: (s: string) => boolean,
): (raw: unknown) => boolean {
  const checks = new Map(
    Object.entries(byType).map(([type, schema]) => [type, TypeCompiler.Compile(toTypeBox(schema))]),
  );
  return (raw) => {
    const type = (raw as { type?: unknown } | null)?.type;
    const check = typeof type === 'string' ? checks.get(type) : undefined;
    return check !== undefined && check.Check(raw) && stringsPass(raw, storable);
  };
}

/** Every string in `value`, however deep, passes `storable`. */
function stringsPass(value: unknown, storable: (s: string) => boolean): boolean {
  if (typeof value === 'string') return storable(value);
  if (typeof value !== 'object' || value === null) return true;
  for (const v of Object.values(value)) if (!stringsPass(v, storable)) return false;
  return true;
}

const bound = (checks: readonly { kind: string; value?: unknown }[], kind: string) =>
  checks.find((c) => c.kind === kind)?.value as number | undefined;

/** The TypeBox schema of a zod schema built of strict objects, strings, integers, arrays, enums. */
function toTypeBox(schema: z.ZodTypeAny): TSchema {
  if (schema instanceof z.ZodObject) {
    if (schema._def.unknownKeys !== 'strict') throw new Error('only strict objects convert');
    const properties = Object.fromEntries(
      Object.entries(schema.shape as z.ZodRawShape).map(([k, v]) => [k, toTypeBox(v)]),
    );
    return Type.Object(properties, { additionalProperties: false });
  }
  if (schema instanceof z.ZodOptional) return Type.Optional(toTypeBox(schema.unwrap()));
  if (schema instanceof z.ZodEffects) {
    // The refinement is `storable`, checked by stringsPass.
    if (schema._def.effect.type !== 'refinement' || !(schema.innerType() instanceof z.ZodString))
      throw new Error('only refinements of strings convert');
    return toTypeBox(schema.innerType());
  }
  if (schema instanceof z.ZodString) {
    const { checks } = schema._def;
    if (checks.some((c) => c.kind !== 'min' && c.kind !== 'max'))
      throw new Error('only string lengths convert');
    return Type.String({ minLength: bound(checks, 'min'), maxLength: bound(checks, 'max') });
  }
  if (schema instanceof z.ZodNumber) {
    const { checks } = schema._def;
    if (
      checks.some(
        (c) => !['int', 'min', 'max'].includes(c.kind) || ('inclusive' in c && !c.inclusive),
      )
    )
      throw new Error('only integers with inclusive bounds convert');
    if (!checks.some((c) => c.kind === 'int')) throw new Error('only integers convert');
    return Type.Integer({ minimum: bound(checks, 'min'), maximum: bound(checks, 'max') });
  }
  if (schema instanceof z.ZodArray) {
    return Type.Array(toTypeBox(schema.element), {
      minItems: schema._def.minLength?.value,
      maxItems: schema._def.maxLength?.value,
    });
  }
  if (schema instanceof z.ZodEnum)
    return Type.Union((schema.options as string[]).map((v) => Type.Literal(v)));
  if (schema instanceof z.ZodLiteral) return Type.Literal(schema.value as string);
  if (schema instanceof z.ZodBoolean) return Type.Boolean();
  throw new Error(`no conversion for ${schema.constructor.name}`);
}
