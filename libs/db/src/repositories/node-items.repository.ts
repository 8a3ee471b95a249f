import { sql } from 'kysely';
import type { MessageRecord, SpawnRecord, TaskItem, WaitRecord } from '@graph-history/domain';
import { Db } from '../connection';
import type { MessagesTable, SpawnsTable } from '../schema';
import type { NodeAt } from './node-read.repository';
import { groupByOrdinal } from './ordinal-groups';
import { unnestNodesAt } from './unnest-rows';
import { boundedRows, sizedPage, UNBOUNDED_BYTES } from './page-bytes';
import { GenerateSql } from '../sql-text/generate-sql';

/**
 * A node's tasks, spawns, waits and messages as of an event, for many nodes at once (each with
 * its own sequence). Lists are oldest first, at most `limit` rows in all: the lateral join yields
 * each node's rows in order, in input order, so the outer LIMIT stops the scan early.
 */
export class NodeItemsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The task list of the newest snapshot at or before each node's sequence, bounded to
   * `maxBytes` of their JSON (see page-bytes: the first list always); `cut` when a list was left
   * out for it.
   */
  @GenerateSql({ params: [1, [{ nodeNo: 1, seq: 1 }]] })
  async tasksAt(
    graphId: number,
    nodes: NodeAt[],
    maxBytes = UNBOUNDED_BYTES,
  ): Promise<{ lists: TaskItem[][]; cut: boolean }> {
    const rows = this.db
      .selectFrom(unnestNodesAt(nodes))
      .crossJoinLateral((eb) =>
        eb
          .selectFrom('task_snapshots as s')
          .select('s.tasks')
          .where('s.graph_id', '=', graphId)
          .whereRef('s.node_no', '=', 'p.node_no')
          .whereRef('s.seq', '<=', 'p.seq')
          .orderBy('s.seq', 'desc')
          .limit(1)
          .as('t'),
      )
      .select(['p.i', 't.tasks']);
    // jsonb has no cheap length (stored sizes are compressed): its text's, in Postgres
    const bounded = await boundedRows<{ i: number; tasks: TaskItem[] }>(
      this.db,
      rows,
      { light: ['i'], heavy: ['tasks'], order: sql`b.i`, size: sql`octet_length(b.tasks::text)` },
      maxBytes,
    );
    const { rows: fitting, cut } = sizedPage(bounded, (r) => r);
    const lists: TaskItem[][] = nodes.map(() => []);
    for (const r of fitting) lists[Number(r.i) - 1] = r.tasks;
    return { lists, cut };
  }

  /** Agents each node asked for by its sequence, within `maxBytes` of purposes (see tasksAt). */
  @GenerateSql({ params: [1, [{ nodeNo: 1, seq: 1 }], 10] })
  async spawnsAt(
    graphId: number,
    nodes: NodeAt[],
    limit: number,
    maxBytes = UNBOUNDED_BYTES,
  ): Promise<{ lists: SpawnRecord[][]; cut: boolean }> {
    const query = this.db
      .selectFrom(unnestNodesAt(nodes))
      .crossJoinLateral((eb) =>
        eb
          .selectFrom('spawns as x')
          .select(['x.requester_no', 'x.child_no', 'x.seq', 'x.spawn_call_id', 'x.agent_type'])
          .select(['x.purpose', 'x.background', 'x.created'])
          .where('x.graph_id', '=', graphId)
          .whereRef('x.requester_no', '=', 'p.node_no')
          .whereRef('x.seq', '<=', 'p.seq')
          .orderBy('x.seq')
          .orderBy('x.child_no')
          .limit(limit)
          .as('s'),
      )
      .select(['p.i', 's.requester_no', 's.child_no', 's.seq', 's.spawn_call_id', 's.agent_type'])
      .select(['s.purpose', 's.background', 's.created'])
      .limit(limit);
    const bounded = await boundedRows<SpawnRow>(
      this.db,
      query,
      {
        light: [
          'i',
          'requester_no',
          'child_no',
          'seq',
          'spawn_call_id',
          'agent_type',
          'background',
          'created',
        ],
        heavy: ['purpose'],
        order: sql`b.i, b.seq, b.child_no`,
        size: sql`coalesce(octet_length(b.purpose), 0) + ${sql.lit(ROW_BYTES)}`,
      },
      maxBytes,
    );
    const { rows, cut } = sizedPage(bounded, (r) => r);
    const lists = groupByOrdinal(nodes.length, rows, (r) => ({
      requesterNo: r.requester_no,
      childNo: r.child_no,
      seq: r.seq,
      spawnCallId: r.spawn_call_id,
      agentType: r.agent_type,
      purpose: r.purpose,
      background: r.background,
      created: r.created,
    }));
    return { lists, cut };
  }

  /**
   * Waits started by each node's sequence; a wait that ended later is still open then. Waits that
   * ended before the retained history (the trim job deletes them) are not shown.
   */
  @GenerateSql({ params: [1, [{ nodeNo: 1, seq: 1 }], 10] })
  async waitsAt(graphId: number, nodes: NodeAt[], limit: number): Promise<WaitRecord[][]> {
    const rows = await this.db
      .selectFrom(unnestNodesAt(nodes))
      .crossJoinLateral((eb) =>
        eb
          .selectFrom('waits as x')
          .selectAll('x')
          .where('x.graph_id', '=', graphId)
          .whereRef('x.node_no', '=', 'p.node_no')
          .whereRef('x.started_seq', '<=', 'p.seq')
          .where((w) =>
            w.or([w('x.ended_seq', 'is', null), w('x.ended_seq', '>=', retainedFrom(graphId))]),
          )
          .orderBy('x.started_seq')
          .orderBy('x.on_no')
          .limit(limit)
          .as('w'),
      )
      .select(['p.i', 'w.node_no', 'w.on_no', 'w.started_seq', 'w.started', 'w.reason'])
      .select((eb) => {
        const endedBy = eb('w.ended_seq', '<=', eb.ref('p.seq'));
        return [
          eb.case().when(endedBy).then(eb.ref('w.ended_seq')).end().as('ended_seq'),
          eb.case().when(endedBy).then(eb.ref('w.ended')).end().as('ended'),
        ];
      })
      .limit(limit)
      .execute();
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

  /**
   * Messages each node sent or received by its sequence, within the retained history and
   * `maxBytes` of texts (see tasksAt).
   */
  @GenerateSql({ params: [1, [{ nodeNo: 1, seq: 1 }], 10] })
  async messagesAt(
    graphId: number,
    nodes: NodeAt[],
    limit: number,
    maxBytes = UNBOUNDED_BYTES,
  ): Promise<{ lists: MessageRecord[][]; cut: boolean }> {
    const query = this.db
      .selectFrom(unnestNodesAt(nodes))
      .crossJoinLateral((eb) =>
        eb
          .selectFrom('messages as x')
          .select(['x.seq', 'x.from_no', 'x.to_no', 'x.message_id', 'x.text', 'x.created'])
          .where('x.graph_id', '=', graphId)
          .where((w) =>
            w.or([w('x.from_no', '=', w.ref('p.node_no')), w('x.to_no', '=', w.ref('p.node_no'))]),
          )
          .whereRef('x.seq', '<=', 'p.seq')
          .where('x.seq', '>=', retainedFrom(graphId))
          .orderBy('x.seq')
          .limit(limit)
          .as('m'),
      )
      .select(['p.i', 'm.seq', 'm.from_no', 'm.to_no', 'm.message_id', 'm.text', 'm.created'])
      .limit(limit);
    const bounded = await boundedRows<MessageRow>(
      this.db,
      query,
      {
        light: ['i', 'seq', 'from_no', 'to_no', 'message_id', 'created'],
        heavy: ['text'],
        order: sql`b.i, b.seq, b.message_id`,
        size: sql`coalesce(octet_length(b.text), 0) + ${sql.lit(ROW_BYTES)}`,
      },
      maxBytes,
    );
    const { rows, cut } = sizedPage(bounded, (r) => r);
    const lists = groupByOrdinal(nodes.length, rows, (r) => ({
      seq: r.seq,
      fromNo: r.from_no,
      toNo: r.to_no,
      messageId: r.message_id,
      text: r.text,
      created: r.created,
    }));
    return { lists, cut };
  }
}

/** What a spawn or message costs beyond its text (ids, numbers, names), counted against bounds. */
const ROW_BYTES = 128;

type SpawnRow = Omit<SpawnsTable, 'graph_id'> & { i: number };
type MessageRow = Omit<MessagesTable, 'graph_id'> & { i: number };

/** The oldest retained seq: older messages and waits ended before it are trimmed with the events. */
const retainedFrom = (graphId: number) =>
  sql<number>`(select coalesce(first_seq, 1) from graphs where graph_id = ${graphId})`;
