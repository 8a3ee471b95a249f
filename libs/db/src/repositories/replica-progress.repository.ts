import { Db } from '../connection';
import { GenerateSql } from '../sql-text/generate-sql';

/** How far a graph is applied on one database. */
export interface GraphProgress {
  appliedSeq: number;
  /** `created` of the newest applied event. */
  lastEvent: number | null;
}

/** What a database (a streaming replica, or the primary) holds of a graph: reads choose by it. */
export class ReplicaProgressRepository {
  constructor(private readonly db: Db) {}

  @GenerateSql({ params: [1] })
  async byGraphId(graphId: number): Promise<GraphProgress | null> {
    const row = await this.db
      .selectFrom('graphs')
      .select(['applied_seq', 'last_event'])
      .where('graph_id', '=', graphId)
      .executeTakeFirst();
    return row ? { appliedSeq: row.applied_seq, lastEvent: row.last_event } : null;
  }

  @GenerateSql({ params: ['g1'] })
  async byGraphKey(graphKey: string): Promise<GraphProgress | null> {
    const dir = await this.db
      .selectFrom('graph_directory')
      .select('graph_id')
      .where('graph_key', '=', graphKey)
      .executeTakeFirst();
    return dir ? this.byGraphId(dir.graph_id) : null;
  }

  /** Whether the database answers (the health of a replica). */
  @GenerateSql({ params: [1_000] })
  async answers(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(resolve, timeoutMs, false);
    });
    const probe = this.db
      .selectFrom('graphs')
      .select('graph_id')
      .limit(1)
      .execute()
      .then(
        () => true,
        () => false,
      );
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
