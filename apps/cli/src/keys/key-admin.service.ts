import { randomBytes } from 'node:crypto';
import { AccountRepository, ApiKeyRepository, ApiKeyRow, Db } from '@graph-history/db';
import {
  generateApiKey,
  graphKeyFromId,
  hashApiKey,
  KeyKind,
  maskApiKey,
} from '@graph-history/domain';
import { CliError } from '../cli-error';
import { assertAccountName, existingAccount } from '../accounts/existing-account';

export interface CreatedKey {
  key: string;
  id: string;
  account: string;
  kind: KeyKind;
  graphKeys: string[] | null;
}

export type RevokeOutcome = { revoked: true; key: ApiKeyRow } | { revoked: false; key: ApiKeyRow };

/** Issues, lists and revokes API keys. Keys are stored as SHA-256 hashes; the clear key is returned once. */
export class KeyAdminService {
  private readonly accounts: AccountRepository;
  private readonly keys: ApiKeyRepository;

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.accounts = new AccountRepository(db);
    this.keys = new ApiKeyRepository(db);
  }

  /** Creates the account when it is new. `restrictedTo` (graph ids `gph_…`) makes a restricted key. */
  async create(accountName: string, restrictedTo: string[] | null): Promise<CreatedKey> {
    assertAccountName(accountName);
    const graphKeys = restrictedTo === null ? null : toGraphKeys(restrictedTo);
    const kind: KeyKind = graphKeys ? 'restricted' : 'secret';
    const now = this.now();
    const account = await this.accounts.findOrCreate(accountName, now);
    const key = generateApiKey(kind);
    const id = `key_${randomBytes(12).toString('hex')}`;
    await this.keys.insert({
      keyId: id,
      accountId: account.accountId,
      kind,
      hash: hashApiKey(key),
      masked: maskApiKey(key),
      graphKeys,
      created: now,
    });
    return { key, id, account: account.name, kind, graphKeys };
  }

  async list(accountName: string): Promise<ApiKeyRow[]> {
    const account = await existingAccount(this.accounts, accountName);
    return this.keys.listByAccount(account.accountId);
  }

  async revoke(keyId: string): Promise<RevokeOutcome> {
    const key = await this.keys.findById(keyId);
    if (!key)
      throw new CliError(
        `No API key has the id ${JSON.stringify(keyId)}; see \`keys list --account NAME\` for ids.`,
      );
    if (key.revoked !== null) return { revoked: false, key };
    await this.keys.revoke(keyId, this.now());
    return { revoked: true, key: (await this.keys.findById(keyId))! };
  }
}

function toGraphKeys(graphIds: string[]): string[] {
  if (graphIds.length === 0)
    throw new CliError('--restricted needs at least one graph id, e.g. --restricted gph_a,gph_b.');
  const keys = graphIds.map((id) => {
    const key = graphKeyFromId(id);
    if (key === null) {
      throw new CliError(
        `--restricted: ${JSON.stringify(id)} is not a graph id; pass gph_<graph_key> ids separated by commas.`,
      );
    }
    return key;
  });
  return [...new Set(keys)];
}
