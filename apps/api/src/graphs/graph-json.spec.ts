import type { Config } from '@graph-history/config';
import { emptyCounts, eventId, type StoredGraphCounts, type Usage } from '@graph-history/domain';
import type { EventReadRepository, GraphRow, NodeReadRepository } from '@graph-history/db';
import type { CountedGraphAt } from './graph-json';
import { GraphViewService } from './graph-view.service';

const counts = (by: Partial<StoredGraphCounts['by_state']>): StoredGraphCounts => ({
  nodes: 12,
  sessions: 2,
  agents: 9,
  blocked: 1,
  // stored counts may lack states (older rows) and hold them in any order
  by_state: by as StoredGraphCounts['by_state'],
});

const graph = (over: Partial<GraphRow>): GraphRow => ({
  graphId: 41,
  graphKey: 'k-1_A',
  accountId: 1,
  source: 'watch',
  created: 1_700_000_000_000,
  appliedSeq: 2_000,
  firstSeq: 1_001,
  lastEvent: 1_700_000_500_000,
  counts: counts({ working: 3, idle: 1 }),
  applyError: null,
  ...over,
});

const at = (g: GraphRow, activeWorking: number, firstEventCreated: number | null = 5) => ({
  graph: g,
  moment: { seq: g.appliedSeq, eventId: eventId(g.graphId, g.appliedSeq), at: 9 },
  facts: {
    firstEventCreated,
    counts: g.counts ?? emptyCounts(),
    lastEvent: g.lastEvent,
    activeWorking,
  },
});

const view = (publicUrl: string) =>
  new GraphViewService(
    { PUBLIC_URL: publicUrl, PORT: 3000, STALE_AFTER_MS: 300_000 } as Config,
    {} as EventReadRepository,
    { countActiveWorking: async () => [] } as unknown as NodeReadRepository,
  );

/** A usage as a retrieve reads it back from jsonb (by_model included). */
const storedUsage: Usage = {
  output_tokens: 5,
  cost_usd: 0.25,
  input_tokens: 7,
  cache_creation_tokens: 3,
  cache_read_tokens: 11,
  by_model: {
    'in-house': {
      output_tokens: 1,
      input_tokens: 1,
      cache_read_tokens: 0,
      cache_creation_tokens: 0,
      cost_usd: null,
    },
    'claude-opus-4-5': {
      cost_usd: 0.25,
      input_tokens: 6,
      output_tokens: 4,
      cache_read_tokens: 11,
      cache_creation_tokens: 3,
    },
  },
};

/** The list's Graph JSON text is JSON.stringify of the Graph object, byte for byte. */
describe('graphJson', () => {
  const cases: CountedGraphAt[] = [
    at(graph({}), 1),
    at(graph({}), 7), // more active than working: stale stays 0
    at(graph({ counts: counts({ canceled: 2, working: 4, failed: 1, input_required: 3 }) }), 0),
    at(graph({ appliedSeq: 0, firstSeq: null, lastEvent: null, counts: null }), 0, null),
    at(graph({ graphId: 123_456_789, appliedSeq: 1_679_616, firstSeq: 36 }), 2),
    at(graph({ source: 'paste', graphKey: 'x' }), 0),
    // usage as the list reads it (no by_model), keys in any order
    at(
      graph({
        counts: {
          ...counts({ idle: 1 }),
          usage: {
            output_tokens: 5,
            cost_usd: null,
            input_tokens: 7,
            cache_creation_tokens: 3,
            cache_read_tokens: 11,
          },
        },
      }),
      0,
    ),
    // usage as a retrieve reads it back from jsonb: keys in any order, a model without a price
    at(
      graph({
        counts: {
          ...counts({ working: 1 }),
          usage: storedUsage,
        },
      }),
      0,
    ),
    at(
      graph({
        applyError: { seq: 2_001, message: 'event "k" (seq 2001): bad\n\u2028 é', since: 77 },
      }),
      1,
    ),
  ];

  it.each(['http://127.0.0.1:3000', 'https://ex.com/a "b"/é\\'])(
    'equals JSON.stringify of present, with the public URL %s',
    async (publicUrl) => {
      const v = view(publicUrl);
      const objects = await v.present(cases);
      expect(v.presentJson(cases)).toEqual(objects.map((o) => JSON.stringify(o)));
    },
  );
});
