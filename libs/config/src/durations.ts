import { z } from 'zod';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d{1,9})(ms|s|m|h|d)$/;

/** `250ms`, `10s`, `5m`, `2h`, `3d` in milliseconds; null when not one of those forms. */
export function parseDuration(text: string): number | null {
  const m = DURATION.exec(text.trim());
  return m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : null;
}

const MESSAGE = 'must be a duration such as 500ms, 10s, 5m, 2h or 3d';

/** A setting holding one duration (in ms once parsed). */
export const duration = (min = 1) =>
  z.string().transform((v, ctx) => {
    const ms = parseDuration(v);
    if (ms === null || ms < min) ctx.addIssue({ code: 'custom', message: MESSAGE });
    return ms ?? 0;
  });

/** A setting holding 1 to `max` durations separated by commas (in ms once parsed). */
export const durationList = (max: number) =>
  z.string().transform((v, ctx) => {
    const parts = v.split(',').map(parseDuration);
    if (parts.length > max || parts.some((ms) => ms === null || ms < 1))
      ctx.addIssue({
        code: 'custom',
        message: `must be 1 to ${max} durations separated by commas, such as 10s,1m,1h`,
      });
    return parts.map((ms) => ms ?? 0);
  });
