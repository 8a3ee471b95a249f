import type { RefStatus } from '@graph-history/domain';
import { Repository } from './repository';
import { anyText, isStorableText } from './storable-text';
import { GenerateSql } from '../sql-text/generate-sql';

export type { RefStatus };

/** Which refs of a graph exist and which have ended, as of every stored event (ingest validation). */
export class NodeRefRepository extends Repository {
  /** The status of each of `refs` that exists; refs absent from the result do not exist. */
  @GenerateSql({ params: [1, ['r1']] })
  async find(graphId: number, refs: string[]): Promise<Map<string, RefStatus>> {
    const found = new Map<string, RefStatus>();
    const candidates = refs.filter(isStorableText);
    if (candidates.length === 0) return found;
    const rows = await this.db
      .selectFrom('node_refs')
      .select(['ref', 'ended', 'session_ref', 'depth'])
      .where('graph_id', '=', graphId)
      .where('ref', '=', anyText(candidates))
      .execute();
    for (const row of rows)
      found.set(row.ref, { ended: row.ended, sessionRef: row.session_ref, depth: row.depth });
    return found;
  }
}
