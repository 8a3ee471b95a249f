import { Insertable } from 'kysely';
import { storedCountsJson, type AppliedEvent } from '@graph-history/domain';
import { Database, WaitsTable } from '../schema';
import type { AppliedJsonEncoder } from './applied-json';

type Rows<T extends keyof Database> = Insertable<Database[T]>[];

/** The table rows of a run of applied events (in seq order). */
export interface AppliedRows {
  events: Rows<'events'>;
  versions: Rows<'node_versions'>;
  /** Each node the run writes, with its first new version: the stored current one ends there. */
  firstVersions: { nodeNos: number[]; validFrom: number[] };
  snapshots: Rows<'task_snapshots'>;
  spawns: Rows<'spawns'>;
  messages: Rows<'messages'>;
  /** Waits opened by the run; already closed when the run also closed them. */
  waitsOpened: WaitsTable[];
  /** Closures of waits opened before the run, as parallel arrays (one per column). */
  waitsClosed: {
    nodeNos: number[];
    onNos: number[];
    startedSeqs: number[];
    endedSeqs: (number | null)[];
    ended: (number | null)[];
  };
}

/** For each event of a run, the working nodes not stale just before it, judged with `staleAfterMs`. */
export interface ActiveBefore {
  staleAfterMs: number;
  counts: number[];
}

/**
 * The rows of `applied`, their public JSON encoded by `json` (the graph's encoder); each event's
 * `activeBefore` count, when given, goes into its row.
 */
export function appliedRows(
  graphId: number,
  applied: AppliedEvent[],
  appliedAt: number,
  activeBefore: ActiveBefore | null,
  json: AppliedJsonEncoder,
): AppliedRows {
  const rows: AppliedRows = {
    events: [],
    versions: [],
    firstVersions: { nodeNos: [], validFrom: [] },
    snapshots: [],
    spawns: [],
    messages: [],
    waitsOpened: [],
    waitsClosed: { nodeNos: [], onNos: [], startedSeqs: [], endedSeqs: [], ended: [] },
  };
  const opened = new Map<string, WaitsTable>();
  const newest = new Map<number, Rows<'node_versions'>[number]>();
  const waitKey = (w: { nodeNo: number; onNo: number; startedSeq: number }) =>
    `${w.nodeNo}:${w.onNo}:${w.startedSeq}`;
  for (const [i, a] of applied.entries()) {
    const {
      event: e,
      versions,
      taskSnapshot: t,
      spawn: s,
      message: m,
      waitsOpened,
      waitsClosed,
    } = a;
    const { eventJson, nodeJson } = json.encode(a);
    rows.events.push({
      graph_id: graphId,
      seq: e.seq,
      key: e.key,
      type: e.type,
      created: e.created,
      node_no: e.nodeNo,
      counts: storedCountsJson(e.counts),
      applied: appliedAt,
      public_json: eventJson,
      active_before: activeBefore?.counts[i] ?? null,
      stale_after_ms: activeBefore?.staleAfterMs ?? null,
    });
    for (let j = 0; j < versions.length; j++) {
      const v = versions[j]!;
      const previous = newest.get(v.no);
      if (previous) previous.superseded_seq = e.seq;
      else {
        rows.firstVersions.nodeNos.push(v.no);
        rows.firstVersions.validFrom.push(e.seq);
      }
      const row: Rows<'node_versions'>[number] = {
        graph_id: graphId,
        node_no: v.no,
        valid_from: e.seq,
        sort_key: v.sortKey,
        parent_no: v.parentNo,
        depth: v.depth,
        kind: v.kind,
        state: v.state,
        last_event: v.lastEvent,
        superseded_seq: null,
        created_seq: v.createdSeq,
        public_json: nodeJson[j]!,
      };
      newest.set(v.no, row);
      rows.versions.push(row);
    }
    if (t)
      rows.snapshots.push({ graph_id: graphId, node_no: t.nodeNo, seq: t.seq, tasks: t.tasks });
    if (s) {
      rows.spawns.push({
        graph_id: graphId,
        requester_no: s.requesterNo,
        child_no: s.childNo,
        seq: s.seq,
        spawn_call_id: s.spawnCallId,
        agent_type: s.agentType,
        purpose: s.purpose,
        background: s.background,
        created: s.created,
      });
    }
    if (m) {
      rows.messages.push({
        graph_id: graphId,
        seq: m.seq,
        from_no: m.fromNo,
        to_no: m.toNo,
        message_id: m.messageId,
        text: m.text,
        created: m.created,
      });
    }
    for (const w of waitsOpened) {
      opened.set(waitKey(w), {
        graph_id: graphId,
        node_no: w.nodeNo,
        on_no: w.onNo,
        started_seq: w.startedSeq,
        started: w.started,
        reason: w.reason,
        ended_seq: w.endedSeq,
        ended: w.ended,
      });
    }
    for (const c of waitsClosed) {
      const row = opened.get(waitKey(c));
      if (row) Object.assign(row, { ended_seq: c.endedSeq, ended: c.ended });
      else {
        rows.waitsClosed.nodeNos.push(c.nodeNo);
        rows.waitsClosed.onNos.push(c.onNo);
        rows.waitsClosed.startedSeqs.push(c.startedSeq);
        rows.waitsClosed.endedSeqs.push(c.endedSeq);
        rows.waitsClosed.ended.push(c.ended);
      }
    }
  }
  rows.waitsOpened = [...opened.values()];
  return rows;
}
