import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';
import type { Database, NodeVersionsTable } from '../schema';

/** Queries over node versions aliased `v`. */
type Versions = Database & { v: NodeVersionsTable };

/**
 * A version row `v` (with `valid_from <= seq`) is the node as of `seq` when its validity has not
 * ended by then: its `superseded_seq` (the next version's `valid_from`) is null or later.
 */
export function notSuperseded(seq: Expression<number> | number): Expression<SqlBool> {
  const eb = expressionBuilder<Versions, 'v'>();
  return eb.or([eb('v.superseded_seq', 'is', null), eb('v.superseded_seq', '>', seq)]);
}

/**
 * How many nodes of graph `graphId`, as of `seq`, are working and were last touched within
 * [since, until]. With `until` the newest `last_event` a version valid at `seq` can have, this
 * walks only the window of the partial index node_versions_working touched since `since`,
 * whatever the graph's size.
 */
export function activeWorkingCount(w: {
  graphId: Expression<number>;
  seq: Expression<number>;
  since: Expression<number>;
  until: Expression<number | null>;
}) {
  const eb = expressionBuilder<Versions, never>();
  return (
    eb
      .selectFrom('node_versions as v')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('v.graph_id', '=', w.graphId)
      // a literal, so that generic plans of prepared statements match the partial index
      .where('v.state', '=', sql.lit('working'))
      .where('v.last_event', '>=', w.since)
      .where('v.last_event', '<=', w.until)
      .where('v.valid_from', '<=', w.seq)
      .where(notSuperseded(w.seq))
      .$asScalar()
  );
}

/** The newest version of node `nodeNo` valid at `seq`: `v.rec` and friends, for a subquery. */
export const versionAt = (
  graphId: Expression<number>,
  nodeNo: Expression<number>,
  seq: Expression<number>,
) =>
  expressionBuilder<Database, never>()
    .selectFrom('node_versions as v')
    .where('v.graph_id', '=', graphId)
    .where('v.node_no', '=', nodeNo)
    .where('v.valid_from', '<=', seq)
    .orderBy('v.valid_from', 'desc')
    .limit(sql.lit(1));
