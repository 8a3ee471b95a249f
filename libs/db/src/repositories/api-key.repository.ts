import { Db } from '../connection';

export interface ApiKeyRow {
  keyId: string;
  accountId: number;
  kind: 'secret' | 'restricted';
  masked: string;
  graphKeys: string[] | null;
  created: number;
  revoked: number | null;
}

export interface NewApiKey {
  keyId: string;
  accountId: number;
  kind: 'secret' | 'restricted';
  hash: Buffer;
  masked: string;
  graphKeys: string[] | null;
  created: number;
}

const columns = [
  'key_id',
  'account_id',
  'kind',
  'masked',
  'graph_keys',
  'created',
  'revoked',
] as const;

function toRow(r: {
  key_id: string;
  account_id: number;
  kind: 'secret' | 'restricted';
  masked: string;
  graph_keys: string[] | null;
  created: number;
  revoked: number | null;
}): ApiKeyRow {
  return {
    keyId: r.key_id,
    accountId: r.account_id,
    kind: r.kind,
    masked: r.masked,
    graphKeys: r.graph_keys,
    created: r.created,
    revoked: r.revoked,
  };
}

export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  /** The unrevoked key with this hash, or null. */
  async findActiveByHash(hash: Buffer): Promise<ApiKeyRow | null> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(columns)
      .where('hash', '=', hash)
      .where('revoked', 'is', null)
      .executeTakeFirst();
    return row ? toRow(row) : null;
  }

  /** The key with this hash, revoked or not, or null. */
  async findByHash(hash: Buffer): Promise<ApiKeyRow | null> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(columns)
      .where('hash', '=', hash)
      .executeTakeFirst();
    return row ? toRow(row) : null;
  }

  /** Of `keyIds`, those not revoked (the event streams' periodic check). */
  async activeIds(keyIds: string[]): Promise<Set<string>> {
    if (keyIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('api_keys')
      .select('key_id')
      .where('key_id', 'in', keyIds)
      .where('revoked', 'is', null)
      .execute();
    return new Set(rows.map((r) => r.key_id));
  }

  async insert(key: NewApiKey): Promise<void> {
    await this.db
      .insertInto('api_keys')
      .values({
        key_id: key.keyId,
        account_id: key.accountId,
        kind: key.kind,
        hash: key.hash,
        masked: key.masked,
        graph_keys: key.graphKeys,
        created: key.created,
      })
      .execute();
  }

  async findById(keyId: string): Promise<ApiKeyRow | null> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(columns)
      .where('key_id', '=', keyId)
      .executeTakeFirst();
    return row ? toRow(row) : null;
  }

  async listByAccount(accountId: number): Promise<ApiKeyRow[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .select(columns)
      .where('account_id', '=', accountId)
      .orderBy('created')
      .orderBy('key_id')
      .execute();
    return rows.map(toRow);
  }

  /** Marks the key revoked; false when no unrevoked key has this id. */
  async revoke(keyId: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('api_keys')
      .set({ revoked: now })
      .where('key_id', '=', keyId)
      .where('revoked', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }
}
