import fc from 'fast-check';
import {
  NO_USAGE,
  usageTotals,
  applyEvent,
  createGraphState,
  eventId,
  graphPublicId,
  GraphState,
  nodeId,
  NodeRecord,
  parseWatchEvent,
  RejectedEventError,
  StoredGraphCounts,
  toPublicNode,
  WatchEvent,
} from '@graph-history/domain';
import { AccountRepository } from '@graph-history/db';
import { EventGenerator, Step, stepArb } from '../../libs/domain/src/__tests__/event-generator';
import { NaiveOracle } from '../../libs/domain/src/__tests__/naive-oracle';
import { ApiHarness, Json } from '../api/support/api-harness';
import { IngestPipeline, ingestPipeline } from '../support/ingest-pipeline';

/**
 * Random histories stored and applied through the ingestor's real write path (EventStore and
 * GraphApplier on Postgres, in random batches, by two appliers with their own reducer-state caches
 * and a small apply batch), then read over HTTP from the read API at random moments: every read
 * (node, graph counts, the nodes list in both orders page by page, descendants) equals what the
 * reducer alone says at that moment. `stale` is kept out of it (STALE_AFTER_MS is huge): it is
 * judged at read time, not by the reducer.
 */

/** What the reducer holds just after one seq. */
interface Moment {
  seq: number;
  lastCreated: number;
  counts: StoredGraphCounts;
  nodes: NodeRecord[];
}

interface History {
  /** Accepted events in seq order, cut into the batches they are sent in. */
  batches: WatchEvent[][];
  /** The reducer's state after each seq (index seq - 1). */
  moments: Moment[];
  final: GraphState;
}

const historyArb = fc.record({
  steps: fc.array(stepArb, { minLength: 1, maxLength: 120 }),
  applyBatch: fc.integer({ min: 1, max: 40 }),
  /** Per batch: which applier applies it (0, 1), or 2: none until the next batch. */
  appliers: fc.array(fc.nat(2), { minLength: 1, maxLength: 30 }),
  resend: fc.nat(3),
  picks: fc.array(fc.nat(1_000_000), { minLength: 12, maxLength: 12 }),
});

/** Runs the generator through the pure reducer, keeping the accepted events and every state. */
function reduceHistory(graphId: number, steps: Step[]): History {
  const state = createGraphState(graphId);
  const oracle = new NaiveOracle();
  const generator = new EventGenerator();
  const batches: WatchEvent[][] = [[]];
  const moments: Moment[] = [];
  for (const step of steps) {
    generator.resync(oracle);
    const parsed = parseWatchEvent(generator.next(step).raw);
    if (!parsed.ok) continue;
    let created: number;
    try {
      created = applyEvent(state, parsed.event, state.lastSeq + 1).event.created;
    } catch (err) {
      if (err instanceof RejectedEventError) continue;
      throw err;
    }
    oracle.apply(parsed.event, created);
    if (step.newBatch && batches[batches.length - 1]!.length > 0) batches.push([]);
    batches[batches.length - 1]!.push(parsed.event);
    moments.push({
      seq: state.lastSeq,
      lastCreated: state.lastCreated,
      counts: structuredClone(state.counts),
      nodes: structuredClone([...state.nodes.values()]),
    });
  }
  return { batches: batches.filter((b) => b.length > 0), moments, final: state };
}

const byNo = (a: NodeRecord, b: NodeRecord) => a.no - b.no;
const byTree = (a: NodeRecord, b: NodeRecord) => (a.sortKey < b.sortKey ? -1 : 1);

describe('reads at a random moment equal the reducer at that moment', () => {
  let h: ApiHarness;
  let accountId: number;
  let runs = 0;

  beforeAll(async () => {
    h = await ApiHarness.start({ STALE_AFTER_MS: String(10 ** 15) });
    ({ accountId } = await new AccountRepository(h.t.db).findOrCreate('acme', 1));
  });
  afterAll(() => h.stop());

  /** Stores the batches (resending one now and then: duplicates change nothing) and applies them. */
  async function ingest(
    graphKey: string,
    history: History,
    pipelines: IngestPipeline[],
    appliers: number[],
    resend: number,
  ): Promise<number> {
    let graphId = 0;
    for (const [i, batch] of history.batches.entries()) {
      ({ graphId } = await pipelines[0]!.store.store({ accountId, graphKey, events: batch }));
      if (resend === 0 && i > 0) {
        const again = await pipelines[1]!.store.store({
          accountId,
          graphKey,
          events: history.batches[i - 1]!,
        });
        expect(again.accepted).toBe(0);
      }
      const applier = appliers[i % appliers.length]!;
      if (applier < 2) await pipelines[applier]!.applier.applyPending(graphId);
    }
    await pipelines[1]!.applier.applyPending(graphId);
    return graphId;
  }

  async function listAll(path: string, limit: number): Promise<Json[]> {
    const items: Json[] = [];
    for (let after: string | null = null; ;) {
      const res = await h.get(`${path}&limit=${limit}${after ? `&starting_after=${after}` : ''}`);
      expect(res.status).toBe(200);
      items.push(...res.json.data);
      if (!res.json.has_more) return items;
      after = items[items.length - 1].id;
    }
  }

  it('holds for random histories applied through the real write path', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, async ({ steps, applyBatch, appliers, resend, picks }) => {
        const graphKey = `prop-${++runs}`;
        const pipelines = await Promise.all(
          [0, 1].map(() => ingestPipeline(h.t.db, { APPLY_BATCH_SIZE: String(applyBatch) })),
        );
        // Node records hold no graph id: the history reduced for any graph is the stored graph's.
        const history = reduceHistory(0, steps);
        fc.pre(history.moments.length > 0);
        const graphId = await ingest(graphKey, history, pipelines, appliers, resend);
        const { moments, final } = history;
        const gph = graphPublicId(graphKey);
        const pick = (i: number, n: number) => picks[i]! % n;
        const present = (rec: NodeRecord, evt: string): Json => ({
          object: 'node',
          as_of_event_id: evt,
          stale: false,
          ...toPublicNode(graphId, rec, graphKey),
        });

        for (const m of [0, 1, 2]) {
          const moment = moments[pick(m, moments.length)]!;
          const evt = eventId(graphId, moment.seq);
          const nodes = moment.nodes;

          const graph = await h.get(`/api/v1/graphs/${gph}?as_of=${evt}`);
          expect(graph.status).toBe(200);
          // the stored counts carry the graph's usage; a Graph shows its totals beside its counts
          const { usage, ...counts } = moment.counts;
          expect(graph.json).toMatchObject({
            as_of_event_id: evt,
            last_event: moment.lastCreated,
            counts: { ...counts, stale: 0 },
          });
          expect(graph.json.usage).toEqual(usageTotals(usage ?? NO_USAGE));

          for (const k of [3, 4, 5]) {
            const rec = [...final.nodes.values()][pick(k + m * 3, final.nodes.size)]!;
            const read = await h.get(
              `/api/v1/graphs/${gph}/nodes/${nodeId(graphId, rec.no)}?as_of=${evt}`,
            );
            const then = nodes.find((n) => n.no === rec.no);
            if (then) {
              expect(read.status).toBe(200);
              expect(read.json).toEqual(present(then, evt));
            } else {
              expect(read.status).toBe(404);
              expect(read.json.error).toMatchObject({
                code: 'node_not_yet_created',
                first_event_id: eventId(graphId, rec.createdSeq),
              });
            }
          }

          const limit = 1 + pick(6 + m, 7);
          const created = await listAll(`/api/v1/graphs/${gph}/nodes?as_of=${evt}`, limit);
          expect(created).toEqual([...nodes].sort(byNo).map((n) => present(n, evt)));
          const tree = await listAll(`/api/v1/graphs/${gph}/nodes?as_of=${evt}&order=tree`, limit);
          expect(tree).toEqual([...nodes].sort(byTree).map((n) => present(n, evt)));

          const top = nodes[pick(9 + m, nodes.length)]!;
          const below = (n: NodeRecord): boolean => {
            const parent = nodes.find((p) => p.no === n.parentNo);
            return parent !== undefined && (parent.no === top.no || below(parent));
          };
          const descendants = await listAll(
            `/api/v1/graphs/${gph}/nodes?as_of=${evt}&order=tree&ancestor_id=${nodeId(graphId, top.no)}`,
            1_000,
          );
          expect(descendants).toEqual(
            nodes
              .filter(below)
              .sort(byTree)
              .map((n) => present(n, evt)),
          );
        }
      }),
      { numRuns: 8, endOnFailure: true },
    );
  });
});
