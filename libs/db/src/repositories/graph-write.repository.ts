import { GraphKeyOwner, graphOwner } from './graph-owner';
import { Repository } from './repository';
import { GenerateSql } from '../sql-text/generate-sql';

export type { GraphKeyOwner } from './graph-owner';

export interface NewWatchGraph {
  graphId: number;
  graphKey: string;
  accountId: number;
  created: number;
}

/** Graph creation on first write, and the graph row lock of contended writers. */
export class GraphWriteRepository extends Repository {
  /**
   * Locks the graph row of `graphKey` (when there is one) until the transaction ends: the
   * writers of a graph that keep losing the optimistic race queue up here instead.
   */
  @GenerateSql({ params: ['g1'] })
  async lockByKey(graphKey: string): Promise<void> {
    const owner = await graphOwner(this.db, graphKey);
    if (!owner) return;
    await this.db
      .selectFrom('graphs')
      .select('graph_id')
      .where('graph_id', '=', owner.graphId)
      .forUpdate()
      .execute();
  }

  /** The owner of `graphKey`, registering it for `accountId` when nobody holds it yet. */
  @GenerateSql({ params: ['g1', 1] })
  async claimKey(graphKey: string, accountId: number): Promise<GraphKeyOwner> {
    const existing = await graphOwner(this.db, graphKey);
    if (existing) return existing;
    // Selecting first keeps the identity sequence from advancing on every write to a known graph.
    await this.db
      .insertInto('graph_directory')
      .values({ graph_key: graphKey, account_id: accountId })
      .onConflict((oc) => oc.column('graph_key').doNothing())
      .execute();
    const owner = await graphOwner(this.db, graphKey);
    if (!owner) throw new Error(`graph key ${graphKey} vanished after insert`);
    return owner;
  }

  @GenerateSql({ params: [{ graphId: 1, graphKey: 'g1', accountId: 1, created: 1_000 }] })
  async createWatchGraph(graph: NewWatchGraph): Promise<void> {
    await this.db
      .insertInto('graphs')
      .values({
        graph_id: graph.graphId,
        graph_key: graph.graphKey,
        account_id: graph.accountId,
        source: 'watch',
        created: graph.created,
      })
      .onConflict((oc) => oc.column('graph_id').doNothing())
      .execute();
  }
}
