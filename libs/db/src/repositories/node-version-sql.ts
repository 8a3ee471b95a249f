import { RawBuilder, sql } from 'kysely';

/**
 * A version row `v` is the node as of a sequence when no newer version of the same node is valid
 * by then. As an anti-join on the primary key it keeps list scans streaming in index order under
 * LIMIT. `notSupersededSql` is the text form for prepared statements (`seqExpr` is SQL).
 */
const NOT_SUPERSEDED_UP_TO = `not exists (select 1 from node_versions w
    where w.graph_id = v.graph_id and w.node_no = v.node_no and w.valid_from > v.valid_from and w.valid_from <= `;

export const notSupersededSql = (seqExpr: string): string => `${NOT_SUPERSEDED_UP_TO}${seqExpr})`;

export const notSuperseded = (seq: number | RawBuilder<unknown>): RawBuilder<boolean> =>
  sql<boolean>`${sql.raw(NOT_SUPERSEDED_UP_TO)}${seq})`;

/**
 * SQL text: how many nodes of graph `graphId`, as of `seq`, are working and were last touched
 * within [since, until]. With `until` the newest `last_event` a version valid at `seq` can have,
 * this walks only the window of the partial index node_versions_working touched since `since`,
 * whatever the graph's size.
 */
export const activeWorkingCountSql = (e: {
  graphId: string;
  seq: string;
  since: string;
  until: string;
}): string => `(select count(*) from node_versions v
    where v.graph_id = ${e.graphId} and v.state = 'working' and v.last_event >= ${e.since} and v.last_event <= ${e.until}
      and v.valid_from <= ${e.seq} and ${notSupersededSql(e.seq)})::int`;
