import fc from 'fast-check';
import { Harness } from '../__tests__/harness';
import { jsonScalar as scalar } from '../__tests__/json-scalar';
import type { ChangeEntry } from '../event';
import { presentNode } from '../public-node';
import { NODE_USAGE_FIELDS, type PublicNode } from '../public/node.schema';
import { changedFields, createdFields } from '../reducer/node-changes';
import { changeJson } from './change-json';
import { encodeNode, reencodeNode, type EncodedNode } from './encoded-node';
import { storedEventJson, storedEventJsonOf } from './event-json';
import { compareJsonbKeys } from './jsonb-order';

const h = new Harness();
h.apply('session.started', 'S', { title: 'root' });
const graphId = 2 ** 40 + 7;
const base = presentNode(graphId, '', h.rec('S'), '', false);

/** Objects are built in one order per field (as presentNode builds them), values anything. */
const attention = fc.oneof(
  fc.constant(null),
  fc.record({ since: scalar, reason: scalar, message: scalar }),
);
const taskCounts = fc.record({
  open: scalar,
  total: scalar,
  pending: scalar,
  completed: scalar,
  in_progress: scalar,
});
const blocked = fc.oneof(
  fc.constant(null),
  fc.record({
    on_ids: fc.array(fc.string(), { maxLength: 3 }),
    starting: scalar,
    node_count: scalar,
    open_tasks: scalar,
    cycle: scalar,
  }),
);
const counts = fc.record({
  cost_usd: scalar,
  input_tokens: scalar,
  output_tokens: scalar,
  cache_read_tokens: scalar,
  cache_creation_tokens: scalar,
});
/** `by_model` built in jsonb's key order, as addUsage builds it. */
const byModel = fc.dictionary(fc.string({ unit: 'binary' }), counts).map((models) => {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(models).sort(compareJsonbKeys))
    Object.defineProperty(out, name, { value: models[name], enumerable: true });
  return out;
});
const usage = fc.oneof(
  fc.constant(null),
  fc.tuple(byModel, counts).map(([by_model, c]) => ({ by_model, ...c })),
);
const CHANGING = Object.keys(base).filter(
  (f) => !['id', 'object', 'as_of_event_id', 'graph_id', 'stale'].includes(f),
);
const update = fc.oneof(
  fc.record({ field: fc.constant('attention'), value: attention }),
  fc.record({ field: fc.constant('task_counts'), value: taskCounts }),
  fc.record({ field: fc.constant('blocked'), value: blocked }),
  fc.record({ field: fc.constantFrom(...NODE_USAGE_FIELDS), value: usage }),
  fc.record({ field: fc.constantFrom(...CHANGING), value: scalar }),
);
const history = fc.array(fc.array(update, { maxLength: 4 }), { minLength: 1, maxLength: 12 });

const event = (changes: ChangeEntry[]) => ({
  seq: 3,
  type: 'status',
  created: 1_000,
  nodeNo: 1,
  source: { provider: 'p', provider_version: '1', adapter: 'a' },
  payload: { state: 'idle', z: { b: 1, a: [{ yy: 1, x: 2 }] } },
  changes,
});

/** Both encoders give the same event text for `change`. */
function expectSameEventJson(change: ChangeEntry, before: EncodedNode | null, after: EncodedNode) {
  const e = event([change]);
  expect(storedEventJsonOf(graphId, e, [changeJson(change, before, after)])).toBe(
    storedEventJson(graphId, e),
  );
}

describe('encoded nodes (only changed fields re-encoded)', () => {
  it('give byte for byte JSON.stringify of every version and storedEventJson of every change', () => {
    fc.assert(
      fc.property(history, (steps) => {
        let node: PublicNode = base;
        let encoded = encodeNode(node);
        expect(encoded.json).toBe(JSON.stringify(node));
        expectSameEventJson(
          { node_id: node.id, created: true, fields: createdFields(node) },
          null,
          encoded,
        );
        for (const updates of steps) {
          const next = { ...node } as Record<string, unknown>;
          for (const { field, value } of updates) next[field] = value;
          const after = next as unknown as PublicNode;
          const fields = changedFields(node, after);
          const reencoded = reencodeNode(encoded, after, fields);
          expect(reencoded.json).toBe(JSON.stringify(after));
          const change = { node_id: after.id, created: false, fields };
          expectSameEventJson(change, encoded, reencoded);
          // a node whose last encoding is not known: its `from` values encoded afresh
          expectSameEventJson(change, null, reencoded);
          node = after;
          encoded = reencoded;
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('give storedEventJson of any event head', () => {
    const text = fc.oneof(fc.string({ unit: 'binary' }), scalar);
    const head = fc.record({
      seq: fc.integer({ min: 1, max: 2 ** 40 }),
      type: text,
      created: scalar,
      nodeNo: fc.integer({ min: 1, max: 2 ** 20 }),
      source: fc.record({ provider: text, provider_version: text, adapter: text }),
      payload: fc.oneof(
        fc.constant(undefined),
        fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue()),
      ),
    });
    fc.assert(
      fc.property(head, (h) => {
        const e = h as unknown as ReturnType<typeof event>;
        expect(storedEventJsonOf(graphId, e, [])).toBe(
          storedEventJson(graphId, { ...e, changes: [] }),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it('shares the previous values when nothing changed', () => {
    const encoded = encodeNode(base);
    const same = reencodeNode(encoded, { ...base }, {});
    expect(same.starts).toBe(encoded.starts);
    expect(same.json).toBe(JSON.stringify(base));
  });
});
