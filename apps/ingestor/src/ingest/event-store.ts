import { Injectable } from '@nestjs/common';
import {
  Db,
  GraphKeyOwner,
  GraphWriteRepository,
  InboxRepository,
  NodeRefRepository,
  storedEventBodies,
  Transactions,
} from '@graph-history/db';
import { QuotaGuard } from '../quota/quota-guard';
import { eventRejected, graphKeyTaken } from './ingest-errors';
import { namedRefs, rawKey } from './named-refs';
import { splitDuplicates } from './split-duplicates';
import { KnownRefs, validateWithStoredRefs } from './validate-with-stored-refs';

export interface EventBatch {
  accountId: number;
  graphKey: string;
  /** Raw events as received; validated here. */
  events: unknown[];
}

export interface StoredBatch {
  graphId: number;
  accepted: number;
  duplicates: number;
  /** Key of the batch's last event. */
  lastKey: string | null;
  /** The graph's last stored seq after this batch. */
  ingestedSeq: number;
}

/** Optimistic attempts before a writer takes the graph row lock (guaranteed to succeed). */
const OPTIMISTIC_ATTEMPTS = 3;

/** Graph key owners kept at most (the map starts over when full). */
const OWNERS_KEPT = 100_000;

/**
 * The durable half of ingestion. An attempt reads what validation needs in one statement,
 * validates (duplicates dropped first), then stores the batch in one statement that succeeds only
 * if nothing was stored for the graph meanwhile, so the writers of a graph are serialised without
 * a lock held across round trips. A writer that keeps losing that race takes the graph row lock
 * for its next attempt. When `store` resolves, the batch is committed (inbox rows with their
 * final seqs, keys, refs); when it throws, nothing of it was stored, not even a new graph.
 */
@Injectable()
export class EventStore {
  /** Owners of the graph keys seen: a key's owner never changes once claimed. */
  private readonly owners = new Map<string, GraphKeyOwner>();

  constructor(
    private readonly transactions: Transactions,
    private readonly inbox: InboxRepository,
    private readonly nodeRefs: NodeRefRepository,
    private readonly graphs: GraphWriteRepository,
    private readonly quotas: QuotaGuard,
  ) {}

  async store(batch: EventBatch): Promise<StoredBatch> {
    for (let attempt = 1; ; attempt++) {
      const stored =
        attempt <= OPTIMISTIC_ATTEMPTS
          ? await this.attempt(batch)
          : await this.transactions.run(async (trx) => {
              await this.graphs.in(trx).lockByKey(batch.graphKey);
              return this.attempt(batch, trx);
            });
      if (stored) return stored;
    }
  }

  /**
   * Null when the batch must be tried again: the graph was just created, or a writer got in
   * first. Runs in `trx` when the caller holds the graph row lock, else statement by statement.
   */
  private async attempt(batch: EventBatch, trx?: Db): Promise<StoredBatch | null> {
    const keys = batch.events.map(rawKey).filter((k): k is string => k !== undefined);
    const names = [...new Set(batch.events.flatMap(namedRefs))];
    const owner = this.owners.get(batch.graphKey);
    const graph = await this.inbox.in(trx).snapshot(batch.graphKey, keys, names, owner);
    if (graph && !owner) this.remember(batch.graphKey, graph);
    // Another account's graph is judged as a free key is (nothing stored): an invalid batch gets
    // the same 400 either way, and only a batch that would claim a free key learns it is taken.
    const foreign = graph !== null && graph.accountId !== batch.accountId;
    const own = foreign ? null : graph;

    const { fresh, duplicates } = splitDuplicates(batch.events, own?.keys ?? new Set());
    const known: KnownRefs = new Map(names.map((ref) => [ref, own?.refs.get(ref) ?? null]));
    const validation = await validateWithStoredRefs(
      fresh.map((f) => f.raw),
      known,
      async (missing) => (own ? this.nodeRefs.in(trx).find(own.graphId, missing) : new Map()),
      Date.now(),
    );
    if (!validation.ok) throw eventRejected(fresh[validation.index]!.index, validation.rejection);
    if (foreign) throw graphKeyTaken(batch.graphKey);
    const bodies = storedEventBodies(validation.events);
    if (bodies.total > 0) await this.quotas.checkBytes(batch.accountId, bodies.total);

    if (!own || own.ingestedSeq === null) {
      await this.createGraph(batch, trx);
      return null;
    }
    const result: StoredBatch = {
      graphId: own.graphId,
      accepted: validation.events.length,
      duplicates,
      lastKey: rawKey(batch.events[batch.events.length - 1]) ?? null,
      ingestedSeq: own.ingestedSeq + validation.events.length,
    };
    if (result.accepted === 0) return result;
    const appended = await this.inbox.in(trx).appendIfUnchanged(own.graphId, {
      afterSeq: own.ingestedSeq,
      events: validation.events,
      refs: validation.refs,
      received: Date.now(),
      bodies,
    });
    if (!appended) return null;
    this.quotas.stored(batch.accountId, bodies.total);
    return result;
  }

  private remember(graphKey: string, { graphId, accountId }: GraphKeyOwner): void {
    if (this.owners.size >= OWNERS_KEPT) this.owners.clear();
    this.owners.set(graphKey, { graphId, accountId });
  }

  /**
   * First write of a valid batch: creates `gph_<key>` (source watch) under the account, within
   * its graphs quota, in the caller's transaction `trx` when it holds one, else in its own.
   */
  private async createGraph(batch: EventBatch, trx?: Db): Promise<void> {
    await this.transactions.run(async (t) => {
      await this.quotas.checkNewGraph(batch.accountId, batch.graphKey, t);
      const graphs = this.graphs.in(t);
      const { graphId, accountId } = await graphs.claimKey(batch.graphKey, batch.accountId);
      if (accountId !== batch.accountId) return; // the next attempt answers graph_key_taken
      await graphs.createWatchGraph({
        graphId,
        graphKey: batch.graphKey,
        accountId,
        created: Date.now(),
      });
    }, trx);
  }
}
