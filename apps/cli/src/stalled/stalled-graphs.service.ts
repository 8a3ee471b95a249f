import { Db, StalledGraph, StalledGraphRepository, Transactions } from '@graph-history/db';
import { graphKeyFromId } from '@graph-history/domain';
import { CliError } from '../cli-error';

export type StallAction = 'skip' | 'retry';

/**
 * The operator's view of graphs quarantined at an event the reducer refused. `retry` lets the
 * ingestor try the event again (after a fix); `skip` drops it, and the graph applies on.
 */
export class StalledGraphsService {
  private readonly stalled: StalledGraphRepository;
  private readonly transactions: Transactions;

  constructor(db: Db) {
    this.stalled = new StalledGraphRepository(db);
    this.transactions = new Transactions(db);
  }

  list(): Promise<StalledGraph[]> {
    return this.stalled.list();
  }

  /** Resolves the stall of the graph (`gph_…` or its key); returns what it was. */
  async resolve(graphId: string, action: StallAction): Promise<StalledGraph> {
    const graphKey = graphId.startsWith('gph_') ? graphKeyFromId(graphId) : graphId;
    const stall = graphKey === null ? null : await this.stalled.find(graphKey);
    if (!stall) throw new CliError(`${graphId} is not stalled (see: graph-history stalled list).`);
    const done =
      action === 'retry'
        ? await this.stalled.retry(stall.graphId, stall.stalledSeq)
        : await this.transactions.run((trx) =>
            this.stalled.in(trx).skip(stall.graphId, stall.stalledSeq),
          );
    if (!done) throw new CliError(`${graphId} changed meanwhile; run the command again.`);
    return stall;
  }
}
