import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { ShownGraphCounts } from '@graph-history/domain';
import type { Database, GraphsTable } from '../schema';
import type { GraphHead, GraphRow } from './graph-read.repository';

/** The columns of a graphs row `g` that a read of something in the graph needs (its GraphHead). */
export const GRAPH_HEAD_COLUMNS = [
  'g.graph_id',
  'g.graph_key',
  'g.account_id',
  'g.source',
  'g.created',
  'g.applied_seq',
  'g.first_seq',
  'g.last_event',
] as const;

/** The apply error's columns of a graphs row `g`. */
export const GRAPH_STALL_COLUMNS = ['g.stalled_seq', 'g.stalled_error', 'g.stalled_at'] as const;

/** GRAPH_HEAD_COLUMNS, the counts and the apply error: what a read of the graph itself needs. */
export const GRAPH_COLUMNS = [...GRAPH_HEAD_COLUMNS, 'g.counts', ...GRAPH_STALL_COLUMNS] as const;

/** The counts of a graphs row `g` without the usage's `by_model`, which a Graph does not show. */
export const shownCounts = () => sql<ShownGraphCounts | null>`g.counts #- '{usage,by_model}'`;

type GraphColumn = (typeof GRAPH_COLUMNS)[number] extends `g.${infer C}` ? C : never;
type GraphHeadColumn = (typeof GRAPH_HEAD_COLUMNS)[number] extends `g.${infer C}` ? C : never;

/** A graphs row as GRAPH_COLUMNS select it. */
export type GraphRowColumns = Pick<Selectable<GraphsTable>, GraphColumn>;

/** A graphs row as GRAPH_HEAD_COLUMNS select it. */
export type GraphHeadColumns = Pick<Selectable<GraphsTable>, GraphHeadColumn>;

export const graphHeadOf = (r: GraphHeadColumns): GraphHead => ({
  graphId: r.graph_id,
  graphKey: r.graph_key,
  accountId: r.account_id,
  source: r.source,
  created: r.created,
  appliedSeq: r.applied_seq,
  firstSeq: r.first_seq,
  lastEvent: r.last_event,
});

export const toGraphRow = (
  r: Omit<GraphRowColumns, 'counts'> & { counts: ShownGraphCounts | null },
): GraphRow => ({
  ...graphHeadOf(r),
  counts: r.counts,
  applyError:
    r.stalled_seq == null
      ? null
      : { seq: r.stalled_seq, message: r.stalled_error ?? '', since: r.stalled_at ?? 0 },
});

/** The graph by its id as `g` (nothing selected yet): filters on the distribution key. */
export const graphById = (db: Kysely<Database>, graphId: Expression<number>) =>
  db.selectFrom('graphs as g').where('g.graph_id', '=', graphId);

/** On a graph `g`: the event asked for, or the newest applied one when none (null) or a later one. */
export const momentSeq = (
  eb: ExpressionBuilder<Database & { g: GraphsTable }, 'g'>,
  seq: Expression<number | null>,
) =>
  eb.fn<number>('least', [eb.fn.coalesce(seq, eb.ref('g.applied_seq')), eb.ref('g.applied_seq')]);

/** On a graph `g`: `created` of the event after `seq`, null past the newest (a scalar subquery). */
export const nextEventCreated = (
  eb: ExpressionBuilder<Database & { g: GraphsTable }, 'g'>,
  seq: Expression<number>,
) =>
  eb
    .selectFrom('events as e')
    .select('e.created')
    .whereRef('e.graph_id', '=', 'g.graph_id')
    .where('e.seq', '=', eb(seq, '+', sql.lit(1)))
    .$asScalar();
