import {
  applyEvent,
  createGraphState,
  type AppliedEvent,
  type NodeRecord,
  type WatchEvent,
} from '@graph-history/domain';
import { Db, NodeReadRepository } from '@graph-history/db';
import { seedGraph } from '../../support/seed';

/** A graph seeded through the ingestor's write path, with the reducer's own account of it. */
export interface SeededHistory {
  graphId: number;
  accountId: number;
  /** What the reducer produced for each event; `applied[seq - 1]` for event `seq`. */
  applied: AppliedEvent[];
  /** Every node as the reducer held it just after event `seq` (absent: not created yet). */
  nodesAt(seq: number): Map<number, NodeRecord>;
}

/**
 * Seeds `events` (which must all be accepted, none trimmed) into graph `gph_<graphKey>`, and
 * replays them through the reducer alone: the expected answer of every read as of every event.
 */
export async function seedHistory(
  db: Db,
  graphKey: string,
  events: WatchEvent[],
  accountName?: string,
): Promise<SeededHistory> {
  const seeded = await seedGraph(db, { graphKey, events, accountName });
  const state = createGraphState(seeded.graphId);
  const snapshots: Map<number, NodeRecord>[] = [new Map()];
  const applied = events.map((e, i) => {
    const out = applyEvent(state, e, i + 1);
    snapshots.push(structuredClone(state.nodes));
    return out;
  });
  return {
    ...seeded,
    applied,
    nodesAt: (seq) => {
      const nodes = snapshots[seq];
      if (!nodes) throw new Error(`no event ${seq}`);
      return nodes;
    },
  };
}

/** Asserts that the nodes list as of every event up to `last` holds what the reducer held then. */
export async function expectListsMatchTheReducer(
  db: Db,
  h: SeededHistory,
  last: number,
): Promise<void> {
  const repo = new NodeReadRepository(db);
  for (let seq = 1; seq <= last; seq++) {
    const { rows: page } = await repo.page({
      graphId: h.graphId,
      seq,
      order: 'created',
      limit: 100,
    });
    expect(page).toEqual([...h.nodesAt(seq).values()].sort((a, b) => a.no - b.no));
  }
}
