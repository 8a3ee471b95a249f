import { type NodeRecord, type TaskItem, type WaitRecord } from '@graph-history/domain';
import { recordColumns, recordOf } from './node-json-row';
import { Repository } from './repository';
import { GenerateSql } from '../sql-text/generate-sql';

/** The current (newest) rows of a graph, from which the reducer's state is rebuilt. */
export interface CurrentGraphRows {
  nodes: NodeRecord[];
  openWaits: WaitRecord[];
  tasks: { nodeNo: number; tasks: TaskItem[] }[];
}

/** Reads what the apply worker needs to rebuild a graph's reducer state. */
export class GraphStateRepository extends Repository {
  @GenerateSql({ params: [1] })
  async currentRows(graphId: number): Promise<CurrentGraphRows> {
    const nodes = await this.db
      .selectFrom('node_versions as v')
      .select(recordColumns('v'))
      .distinctOn('v.node_no')
      .where('v.graph_id', '=', graphId)
      .orderBy('v.node_no')
      .orderBy('v.valid_from', 'desc')
      .execute();
    const openWaits = await this.db
      .selectFrom('waits')
      .select(['node_no', 'on_no', 'started_seq', 'started', 'reason'])
      .where('graph_id', '=', graphId)
      .where('ended_seq', 'is', null)
      .execute();
    const tasks = await this.db
      .selectFrom('task_snapshots')
      .select(['node_no', 'tasks'])
      .distinctOn('node_no')
      .where('graph_id', '=', graphId)
      .orderBy('node_no')
      .orderBy('seq', 'desc')
      .execute();
    return {
      nodes: nodes.map(recordOf),
      openWaits: openWaits.map((w) => ({
        nodeNo: w.node_no,
        onNo: w.on_no,
        startedSeq: w.started_seq,
        started: w.started,
        reason: w.reason,
        endedSeq: null,
        ended: null,
      })),
      tasks: tasks.map((t) => ({ nodeNo: t.node_no, tasks: t.tasks })),
    };
  }
}
