import { AccountRepository, Db } from '@graph-history/db';
import { CreatedKey, KeyAdminService } from '../keys/key-admin.service';

export const DEMO_ACCOUNT = 'demo';

/** On an empty database (no account yet), creates the demo account and a secret key for it. */
export async function createDemoAccountIfEmpty(db: Db): Promise<CreatedKey | null> {
  if ((await new AccountRepository(db).count()) > 0) return null;
  return new KeyAdminService(db).create(DEMO_ACCOUNT, null);
}
