import { Db } from '../connection';
import { GenerateSql } from '../sql-text/generate-sql';

export interface NewViewerSession {
  tokenHash: Buffer;
  keyId: string;
  created: number;
  expires: number;
}

/** A live session with the key it signed in with. */
export interface ViewerSessionRow {
  keyId: string;
  accountId: number;
  kind: 'secret' | 'restricted';
  graphKeys: string[] | null;
  expires: number;
}

export class ViewerSessionRepository {
  constructor(private readonly db: Db) {}

  @GenerateSql({
    params: [{ tokenHash: Buffer.from('token'), keyId: 'key1', created: 1_000, expires: 9_000 }],
  })
  async insert(s: NewViewerSession): Promise<void> {
    await this.db
      .insertInto('viewer_sessions')
      .values({ token_hash: s.tokenHash, key_id: s.keyId, created: s.created, expires: s.expires })
      .execute();
  }

  /** The session with this token hash, unless it has expired or its key was revoked. */
  @GenerateSql({ params: [Buffer.from('token'), 2_000] })
  async findActive(tokenHash: Buffer, now: number): Promise<ViewerSessionRow | null> {
    const row = await this.db
      .selectFrom('viewer_sessions as s')
      .innerJoin('api_keys as k', 'k.key_id', 's.key_id')
      .select(['k.key_id', 'k.account_id', 'k.kind', 'k.graph_keys', 's.expires'])
      .where('s.token_hash', '=', tokenHash)
      .where('s.expires', '>', now)
      .where('k.revoked', 'is', null)
      .executeTakeFirst();
    return row
      ? {
          keyId: row.key_id,
          accountId: Number(row.account_id),
          kind: row.kind,
          graphKeys: row.graph_keys,
          expires: Number(row.expires),
        }
      : null;
  }

  @GenerateSql({ params: [Buffer.from('token')] })
  async delete(tokenHash: Buffer): Promise<void> {
    await this.db.deleteFrom('viewer_sessions').where('token_hash', '=', tokenHash).execute();
  }

  /** Removes sessions that ended before `now`; returns how many. */
  @GenerateSql({ params: [2_000] })
  async deleteExpired(now: number): Promise<number> {
    const res = await this.db
      .deleteFrom('viewer_sessions')
      .where('expires', '<=', now)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
