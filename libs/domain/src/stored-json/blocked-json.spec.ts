import fc from 'fast-check';
import { jsonScalar as scalar } from '../__tests__/json-scalar';
import { blockedJson } from './blocked-json';
import { inJsonbOrder } from './jsonb-order';

describe('blockedJson', () => {
  it('is JSON.stringify(inJsonbOrder(blocked)) of a blocked as presentNode builds it', () => {
    const blocked = fc.record({
      on_ids: fc.array(fc.string({ unit: 'binary' }), { maxLength: 4 }),
      starting: scalar,
      node_count: scalar,
      open_tasks: scalar,
      cycle: scalar,
    });
    fc.assert(
      fc.property(blocked, (b) => {
        expect(blockedJson(b)).toBe(JSON.stringify(inJsonbOrder(b)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('is undefined for anything else, or the same text', () => {
    const other = fc.oneof(
      fc.dictionary(
        fc.constantFrom('on_ids', 'starting', 'node_count', 'open_tasks', 'cycle', 'x'),
        fc.jsonValue(),
      ),
      fc.array(fc.jsonValue(), { maxLength: 5 }),
      fc.jsonValue().filter((v): v is object => typeof v === 'object' && v !== null),
    );
    fc.assert(
      fc.property(other, (b) => {
        const json = blockedJson(b);
        if (json !== undefined) expect(json).toBe(JSON.stringify(inJsonbOrder(b)));
      }),
      { numRuns: 2_000 },
    );
    expect(blockedJson({ on_ids: [1], starting: 1, node_count: 1, open_tasks: 1, cycle: 1 })).toBe(
      undefined,
    );
  });
});
