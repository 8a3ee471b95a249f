import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { simulate } from '@graph-history/simulator';
import { parseWatchEvent, parseWatchEventByZod } from './watch-event';

const events = simulate({ graphs: 3, events: 400, seed: 'compiled-check' }).flatMap(
  (g) => g.events,
);
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Sets `value` at a random path of `root` (a new key, or one that exists), or deletes it. */
function mutate(root: Record<string, unknown>, pathSeed: number[], value: unknown, del: boolean) {
  let node: unknown = root;
  for (const [depth, seed] of pathSeed.entries()) {
    if (typeof node !== 'object' || node === null) return;
    const keys = [...Object.keys(node), 'extra'];
    const key = keys[seed % keys.length]!;
    const child = (node as Record<string, unknown>)[key];
    const last = depth === pathSeed.length - 1 || typeof child !== 'object' || child === null;
    if (last) {
      if (del) delete (node as Record<string, unknown>)[key];
      else (node as Record<string, unknown>)[key] = value;
      return;
    }
    node = child;
  }
}

const oddValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    '',
    'a\u0000b',
    'x\ud800',
    'x'.repeat(201),
    'x'.repeat(513),
    -1,
    1.5,
    8.64e15 + 2,
  ),
  fc.constantFrom('idle', 'working', 'completed', 'pending', 'question', 'explicit'),
);

describe('the compiled check of parseWatchEvent', () => {
  it('takes the fast path for the events a session sends', () => {
    for (const e of events) {
      const raw = copy(e);
      const parsed = parseWatchEvent(raw);
      expect(parsed).toEqual({ ok: true, event: e });
      // The fast path hands back the checked value itself; zod builds a new one.
      expect(parsed.ok && parsed.event).toBe(raw);
    }
  });

  it('answers as zod does for any changed event: same acceptance, same event, same rejection', () => {
    fc.assert(
      fc.property(
        fc.nat(events.length - 1),
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        oddValue,
        fc.boolean(),
        (i, path, value, del) => {
          const raw = copy(events[i]!) as unknown as Record<string, unknown>;
          mutate(raw, path, value, del);
          const fast = parseWatchEvent(copy(raw));
          const byZod = parseWatchEventByZod(copy(raw));
          if (!isDeepStrictEqual(fast, byZod)) expect(fast).toEqual(byZod);
        },
      ),
      { numRuns: 3_000 },
    );
  });
});
