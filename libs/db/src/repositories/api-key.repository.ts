import { Db } from '../connection';
import { GenerateSql } from '../sql-text/generate-sql';

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
  @GenerateSql({ params: [Buffer.from('hash')] })
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
  @GenerateSql({ params: [Buffer.from('hash')] })
  async findByHash(hash: Buffer): Promise<ApiKeyRow | null> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(columns)
      .where('hash', '=', hash)
      .executeTakeFirst();
    return row ? toRow(row) : null;
  }

  /** Of `keyIds`, those not revoked (the event streams' periodic check). */
  @GenerateSql({ params: [['key1']] })
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

  @GenerateSql({
    params: [
      {
        keyId: 'key1',
        accountId: 1,
        kind: 'secret',
        hash: Buffer.from('hash'),
        masked: 'gh_…',
        graphKeys: null,
        created: 1_000,
      },
    ],
  })
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

  @GenerateSql({ params: ['key1'] })
  async findById(keyId: string): Promise<ApiKeyRow | null> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(columns)
      .where('key_id', '=', keyId)
      .executeTakeFirst();
    return row ? toRow(row) : null;
  }

  @GenerateSql({ params: [1] })
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
  @GenerateSql({ params: ['key1', 2_000] })
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
