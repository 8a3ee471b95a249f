import { sql } from 'kysely';
import type { WatchEvent } from '@graph-history/domain';
import { GraphKeyOwner, graphOwner } from './graph-owner';
import { executeNamed } from '../named-statement';
import { Repository } from './repository';
import { arrayLiteral } from './array-literal';
import { insertRowsSql } from './insert-rows';
import { RefStatus } from './node-ref.repository';
import { isStorableText } from './storable-text';
import { StoredEventBodies, storedEventBodies } from './stored-event-bodies';
import { GenerateSql } from '../sql-text/generate-sql';

/** What ingest validation needs of a graph, read in one statement (one snapshot). */
export interface IngestSnapshot {
  graphId: number;
  accountId: number;
  /** Last stored seq; null while the key is registered but its graph row is not there yet. */
  ingestedSeq: number | null;
  /** Which of the asked keys were stored before. */
  keys: Set<string>;
  /** Status of each asked ref that exists; asked refs absent here do not exist. */
  refs: Map<string, RefStatus>;
}

export interface NewBatch {
  /** The graph's ingested_seq the batch was validated against; its events follow it. */
  afterSeq: number;
  events: WatchEvent[];
  /** Refs the batch creates or ends, with their status after it. */
  refs: ReadonlyMap<string, RefStatus>;
  received: number;
  /** `events` serialized (storedEventBodies), when the caller already did it; else done here. */
  bodies?: StoredEventBodies;
}

/** The ingest side of a graph: its durable inbox, idempotency keys and known refs. */
export class InboxRepository extends Repository {
  /**
   * The graph of `graphKey` with its stored keys among `keys` and the statuses of `refs`: the
   * owner from the directory (unless `known`: it never changes once claimed), then one statement
   * on the graph's rows by its id (one snapshot).
   */
  @GenerateSql({ params: ['g1', ['k1'], ['r1']] })
  async snapshot(
    graphKey: string,
    keys: string[],
    refs: string[],
    known?: GraphKeyOwner,
  ): Promise<IngestSnapshot | null> {
    const owner = known ?? (await graphOwner(this.db, graphKey));
    if (!owner) return null;
    const [r] = await executeNamed(
      this.db,
      'gh_ingest_snapshot',
      sql<{
        ingested_seq: number | null;
        keys: string[];
        refs: [string, boolean, string | null, number | null][];
      }>`select (select ingested_seq from graphs where graph_id = ${owner.graphId}) as ingested_seq,
        array(select e.key from ${askedTexts(keys)}
              cross join lateral (select key from event_keys
                                  where graph_id = ${owner.graphId} and key = asked.t limit 1) e) as keys,
        coalesce((select json_agg(json_build_array(r.ref, r.ended, r.session_ref, r.depth)) from ${askedTexts(refs)}
                  cross join lateral (select ref, ended, session_ref, depth from node_refs
                                      where graph_id = ${owner.graphId} and ref = asked.t limit 1) r), '[]') as refs`,
    );
    return {
      ...owner,
      ingestedSeq: r!.ingested_seq,
      keys: new Set(r!.keys),
      refs: new Map(
        r!.refs.map(([ref, ended, sessionRef, depth]) => [ref, { ended, sessionRef, depth }]),
      ),
    };
  }

  /**
   * Stores a validated batch in ONE statement, only if the graph's ingested_seq is still
   * `afterSeq` (nothing was stored since the batch was validated): its inbox rows with their final
   * seqs, their keys with each event's size, the refs it creates or ends, the new ingested_seq
   * and the graph's stored bytes. False when another batch got in first and nothing was stored.
   */
  @GenerateSql({
    params: [
      1,
      {
        afterSeq: 0,
        events: [{ key: 'k1', type: 'session.started', created: 1_000 }],
        refs: new Map([['r1', { ended: false, sessionRef: null, depth: 0 }]]),
        received: 1_000,
      },
    ],
  })
  async appendIfUnchanged(graphId: number, batch: NewBatch): Promise<boolean> {
    const { afterSeq, events, refs, received } = batch;
    const bodies = batch.bodies ?? storedEventBodies(events);
    const advanced = sql`exists (select 1 from advanced)`;
    const inbox = insertRowsSql(
      'inbox',
      { graph_id: 'bigint', seq: 'bigint', body: 'jsonb text', received: 'bigint' },
      events.map((_, i) => ({
        graph_id: graphId,
        seq: afterSeq + 1 + i,
        body: bodies.texts[i]!,
        received,
      })),
      advanced,
    );
    const keys = insertRowsSql(
      'event_keys',
      { graph_id: 'bigint', key: 'text', seq: 'bigint', bytes: 'int' },
      events.map((event, i) => ({
        graph_id: graphId,
        key: event.key,
        seq: afterSeq + 1 + i,
        bytes: bodies.bytes[i]!,
      })),
      advanced,
    );
    const refRows = insertRowsSql(
      'node_refs',
      { graph_id: 'bigint', ref: 'text', ended: 'boolean', session_ref: 'text', depth: 'int' },
      [...refs].map(([ref, s]) => ({
        graph_id: graphId,
        ref,
        ended: s.ended,
        session_ref: s.sessionRef,
        depth: s.depth,
      })),
      advanced,
    );
    const [result] = await executeNamed(
      this.db,
      'gh_ingest_append',
      sql<{ advanced: number }>`with
        advanced as (
          update graphs set ingested_seq = ${afterSeq + events.length},
            stored_bytes = stored_bytes + ${bodies.total}
          where graph_id = ${graphId} and ingested_seq = ${afterSeq} returning 1),
        new_inbox as (${inbox}),
        new_keys as (${keys}),
        new_refs as (${refRows} on conflict (graph_id, ref) do update set ended = excluded.ended)
      select count(*)::int as advanced from advanced`,
    );
    return result!.advanced === 1;
  }
}

/**
 * The asked keys or refs as rows `asked(t)`, each looked up by its own probe of the table's
 * `(graph_id, key|ref)` primary key: a lateral subquery with `limit 1` (one row: the key is
 * unique), which the planner cannot flatten into a join. A filter on `= any(…)`, or a flattened
 * join, was planned on fresh tables as a scan of all the graph's rows, and event keys outlive
 * retention.
 */
const askedTexts = (values: string[]) =>
  sql`unnest(${arrayLiteral(values.filter(isStorableText), 'text')}::text[]) as asked(t)`;
