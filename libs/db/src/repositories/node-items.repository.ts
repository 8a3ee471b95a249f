import type { MessageRecord, SpawnRecord, TaskItem, WaitRecord } from '@graph-history/domain';
import { sql } from 'kysely';
import { Db } from '../connection';
import type { MessagesTable, SpawnsTable, WaitsTable } from '../schema';
import type { NodeAt } from './node-read.repository';
import { groupByOrdinal } from './ordinal-groups';

/**
 * A node's tasks, spawns, waits and messages as of an event, for many nodes at once (each with
 * its own sequence). Lists are oldest first, at most `limit` rows in all: the lateral join yields
 * each node's rows in order, in input order, so the outer LIMIT stops the scan early.
 */
export class NodeItemsRepository {
  constructor(private readonly db: Db) {}

  /** The task list of the newest snapshot at or before each node's sequence. */
  async tasksAt(graphId: number, nodes: NodeAt[]): Promise<TaskItem[][]> {
    const { rows } = await sql<{ i: number; tasks: TaskItem[] }>`
      select p.i, t.tasks
      from ${pairs(nodes)}
      cross join lateral (
        select s.tasks from task_snapshots s
        where s.graph_id = ${graphId} and s.node_no = p.node_no and s.seq <= p.seq
        order by s.seq desc limit 1
      ) t`.execute(this.db);
    const out: TaskItem[][] = nodes.map(() => []);
    for (const r of rows) out[Number(r.i) - 1] = r.tasks;
    return out;
  }

  async spawnsAt(graphId: number, nodes: NodeAt[], limit: number): Promise<SpawnRecord[][]> {
    const { rows } = await sql<{ i: number } & SpawnRow>`
      select p.i, s.*
      from ${pairs(nodes)}
      cross join lateral (
        select x.requester_no, x.child_no, x.seq, x.spawn_call_id, x.agent_type, x.purpose, x.background, x.created
        from spawns x
        where x.graph_id = ${graphId} and x.requester_no = p.node_no and x.seq <= p.seq
        order by x.seq, x.child_no limit ${limit}
      ) s
      limit ${limit}`.execute(this.db);
    return groupByOrdinal(nodes.length, rows, (r) => ({
      requesterNo: r.requester_no,
      childNo: r.child_no,
      seq: r.seq,
      spawnCallId: r.spawn_call_id,
      agentType: r.agent_type,
      purpose: r.purpose,
      background: r.background,
      created: r.created,
    }));
  }

  /**
   * Waits started by each node's sequence; a wait that ended later is still open then. Waits that
   * ended before the retained history (the trim job deletes them) are not shown.
   */
  async waitsAt(graphId: number, nodes: NodeAt[], limit: number): Promise<WaitRecord[][]> {
    const { rows } = await sql<{ i: number } & WaitRow>`
      select p.i, w.node_no, w.on_no, w.started_seq, w.started, w.reason,
        case when w.ended_seq <= p.seq then w.ended_seq end as ended_seq,
        case when w.ended_seq <= p.seq then w.ended end as ended
      from ${pairs(nodes)}
      cross join lateral (
        select x.* from waits x
        where x.graph_id = ${graphId} and x.node_no = p.node_no and x.started_seq <= p.seq
          and (x.ended_seq is null or x.ended_seq >= ${retainedFrom(graphId)})
        order by x.started_seq, x.on_no limit ${limit}
      ) w
      limit ${limit}`.execute(this.db);
    return groupByOrdinal(nodes.length, rows, (r) => ({
      nodeNo: r.node_no,
      onNo: r.on_no,
      startedSeq: r.started_seq,
      started: r.started,
      reason: r.reason,
      endedSeq: r.ended_seq,
      ended: r.ended,
    }));
  }

  /** Messages each node sent or received by its sequence, within the retained history. */
  async messagesAt(graphId: number, nodes: NodeAt[], limit: number): Promise<MessageRecord[][]> {
    const { rows } = await sql<{ i: number } & MessageRow>`
      select p.i, m.*
      from ${pairs(nodes)}
      cross join lateral (
        select x.seq, x.from_no, x.to_no, x.message_id, x.text, x.created from messages x
        where x.graph_id = ${graphId} and (x.from_no = p.node_no or x.to_no = p.node_no) and x.seq <= p.seq
          and x.seq >= ${retainedFrom(graphId)}
        order by x.seq limit ${limit}
      ) m
      limit ${limit}`.execute(this.db);
    return groupByOrdinal(nodes.length, rows, (r) => ({
      seq: r.seq,
      fromNo: r.from_no,
      toNo: r.to_no,
      messageId: r.message_id,
      text: r.text,
      created: r.created,
    }));
  }
}

/** The oldest retained seq: older messages and waits ended before it are trimmed with the events. */
const retainedFrom = (graphId: number) =>
  sql`(select coalesce(first_seq, 1) from graphs where graph_id = ${graphId})`;

const pairs = (nodes: NodeAt[]) =>
  sql`unnest(${nodes.map((n) => n.nodeNo)}::int[], ${nodes.map((n) => n.seq)}::bigint[]) with ordinality as p(node_no, seq, i)`;

type SpawnRow = Omit<SpawnsTable, 'graph_id'>;
type WaitRow = Omit<WaitsTable, 'graph_id'>;
type MessageRow = Omit<MessagesTable, 'graph_id'>;
