import { readFile, writeFile } from 'node:fs/promises';
import { AccountRepository, ApiKeyRepository, Db } from '@graph-history/db';
import { hashApiKey } from '@graph-history/domain';
import { KeyAdminService } from '../keys/key-admin.service';

export const DEMO_ACCOUNT = 'demo';

export interface DemoAccess {
  /** The demo account's secret key, which feeds its simulated share. */
  key: string;
  /** Where that key is kept between starts (DATA_DIR/demo-key, readable by this user only). */
  keyFile: string;
  /** Whether the account was created by this start (the database was empty). */
  created: boolean;
}

/**
 * The demo account's key: on an empty database the account is created; on a database that holds
 * it, the key kept in `keyFile` (a new one, kept there, when that file is missing or its key was
 * revoked). Null when the database has accounts but no demo account.
 */
export async function demoAccess(db: Db, keyFile: string): Promise<DemoAccess | null> {
  const accounts = new AccountRepository(db);
  const admin = new KeyAdminService(db);
  const empty = (await accounts.count()) === 0;
  const demo = empty ? null : await accounts.findByName(DEMO_ACCOUNT);
  if (!empty && !demo) return null;
  if (demo) {
    const kept = (await readFile(keyFile, 'utf8').catch(() => '')).trim();
    const row = kept ? await new ApiKeyRepository(db).findActiveByHash(hashApiKey(kept)) : null;
    if (row?.accountId === demo.accountId && row.kind === 'secret') {
      return { key: kept, keyFile, created: false };
    }
  }
  const { key } = await admin.create(DEMO_ACCOUNT, null);
  await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
  return { key, keyFile, created: empty };
}
