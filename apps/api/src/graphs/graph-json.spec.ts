import {
  emptyCounts,
  eventId,
  fieldOrder,
  NODE_STATES,
  PUBLIC_SCHEMAS,
  type PublicGraph,
  type StoredGraphCounts,
  usageTotals,
} from '@graph-history/domain';
import type { GraphRow } from '@graph-history/db';
import { graphJson } from './graph-json';

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

const PAGES = 'https://ex.com/a "b"/é\\/graphs/';

/** The Graph of `g` as of its newest event, read back from its JSON text. */
const read = (g: GraphRow, activeWorking: number, firstEventCreated: number | null = 5) => {
  const at = {
    graph: g,
    moment: { seq: g.appliedSeq, eventId: eventId(g.graphId, g.appliedSeq), at: 9 },
    facts: { firstEventCreated, counts: g.counts ?? emptyCounts(), lastEvent: g.lastEvent },
  };
  return JSON.parse(
    graphJson(at, activeWorking, JSON.stringify(PAGES).slice(1, -1)),
  ) as PublicGraph;
};

describe('graphJson', () => {
  it('writes a Graph, fields in the schema’s order', () => {
    const g = read(graph({ applyError: { seq: 2_001, message: 'm', since: 77 } }), 1);
    expect(Object.keys(g)).toEqual(fieldOrder(PUBLIC_SCHEMAS.Graph));
    expect(Object.keys(g.retention)).toEqual(fieldOrder(PUBLIC_SCHEMAS.Retention));
    expect(Object.keys(g.counts)).toEqual(fieldOrder(PUBLIC_SCHEMAS.GraphCounts));
    expect(Object.keys(g.counts.by_state)).toEqual(NODE_STATES);
    expect(g).toMatchObject({
      id: 'gph_k-1_A',
      object: 'graph',
      as_of_event_id: eventId(41, 2_000),
      source: 'watch',
      url: `${PAGES}gph_k-1_A`,
      created: 1_700_000_000_000,
      last_event: 1_700_000_500_000,
      retention: {
        event_count: 1_000,
        first_event_id: eventId(41, 1_001),
        first_event_created: 5,
        last_event_id: eventId(41, 2_000),
        last_event_created: 1_700_000_500_000,
      },
      counts: { nodes: 12, sessions: 2, agents: 9, stale: 2, blocked: 1 },
    });
  });

  it('counts the working nodes not active as stale, never fewer than none', () => {
    expect(read(graph({}), 1).counts.stale).toBe(2);
    expect(read(graph({}), 7).counts.stale).toBe(0);
  });

  it('gives every state a count, zero for those the stored counts lack', () => {
    const by = read(graph({ counts: counts({ canceled: 2, working: 4 }) }), 0).counts.by_state;
    expect(Object.entries(by)).toEqual(
      NODE_STATES.map((s) => [s, { canceled: 2, working: 4 }[s as string] ?? 0]),
    );
  });

  it('has an empty retention before the first event', () => {
    const g = read(
      graph({ appliedSeq: 0, firstSeq: null, lastEvent: null, counts: null }),
      0,
      null,
    );
    expect(g.retention).toEqual({
      event_count: 0,
      first_event_id: null,
      first_event_created: null,
      last_event_id: null,
      last_event_created: null,
    });
    expect(g.last_event).toBeNull();
  });

  it('writes usage totals (no by_model) in their one order, as a read or a list gets the counts', () => {
    const usage = {
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
      },
    };
    const totals = JSON.stringify(usageTotals(usage));
    expect(totals).toBe(
      '{"cost_usd":0.25,"input_tokens":7,"output_tokens":5,"cache_read_tokens":11,"cache_creation_tokens":3}',
    );
    const { by_model: _, ...listed } = usage;
    for (const u of [usage, listed]) {
      const g = read(graph({ counts: { ...counts({ working: 1 }), usage: u } }), 0);
      expect(JSON.stringify(g.usage)).toBe(totals);
    }
  });

  it('escapes what a key, a source and a refusal hold', () => {
    const message = 'event "k" (seq 2001): bad\n\u2028 é';
    const g = read(
      graph({ source: 'paste', graphKey: 'x', applyError: { seq: 1, message, since: 7 } }),
      0,
    );
    expect(g.url).toBe(`${PAGES}gph_x`);
    expect(g.source).toBe('paste');
    expect(g.apply_error).toEqual({
      code: 'event_rejected',
      message: `Newer events are stored but not shown until an operator resolves this: ${message}`,
      since: 7,
    });
    expect(read(graph({}), 0)).not.toHaveProperty('apply_error');
  });
});
