import { randomBytes } from 'node:crypto';
import { generateApiKey, hashApiKey, maskApiKey } from '@graph-history/domain';
import { AccountRepository, ApiKeyRepository, Db } from '@graph-history/db';

export interface TestKey {
  key: string;
  accountId: number;
  /** `Authorization` header value. */
  auth: string;
}

/** A new key (secret unless graph keys are given) of the account, created when new. */
export async function createKey(
  db: Db,
  account: string,
  restrictedTo?: string[],
): Promise<TestKey> {
  const { accountId } = await new AccountRepository(db).findOrCreate(account, Date.now());
  const kind = restrictedTo ? 'restricted' : 'secret';
  const key = generateApiKey(kind);
  await new ApiKeyRepository(db).insert({
    keyId: `key_${randomBytes(8).toString('hex')}`,
    accountId,
    kind,
    hash: hashApiKey(key),
    masked: maskApiKey(key),
    graphKeys: restrictedTo ?? null,
    created: Date.now(),
  });
  return { key, accountId, auth: `Bearer ${key}` };
}
