import { generateApiKey, hashApiKey, maskApiKey } from '@graph-history/domain';
import { AccountRepository, ApiKeyRepository } from '@graph-history/db';
import { ApiError, AuthService } from '@graph-history/http';
import { createTestDatabase, TestDatabase } from '../support/test-database';

describe('AuthService', () => {
  let t: TestDatabase;
  let keys: ApiKeyRepository;
  let clock = 1_000_000;
  let auth: AuthService;
  let secret: string;

  beforeAll(async () => {
    t = await createTestDatabase();
    keys = new ApiKeyRepository(t.db);
    const account = await new AccountRepository(t.db).findOrCreate('acme', 1);
    secret = generateApiKey('secret');
    await keys.insert({
      keyId: 'key_1',
      accountId: account.accountId,
      kind: 'secret',
      hash: hashApiKey(secret),
      masked: maskApiKey(secret),
      graphKeys: null,
      created: 1,
    });
    auth = new AuthService(keys, () => clock);
  });
  afterAll(() => t.drop());

  const rejection = async (header: string | undefined) => {
    try {
      await auth.authenticate(header);
    } catch (e) {
      return e as ApiError;
    }
    throw new Error('expected a rejection');
  };

  it('accepts a valid key by Bearer and Basic', async () => {
    await expect(auth.authenticate(`Bearer ${secret}`)).resolves.toMatchObject({
      keyId: 'key_1',
      kind: 'secret',
      graphKeys: null,
    });
    const basic = `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;
    await expect(auth.authenticate(basic)).resolves.toMatchObject({ keyId: 'key_1' });
  });

  it('rejects unknown and malformed keys with a masked key, 401 and WWW-Authenticate', async () => {
    const unknown = generateApiKey('secret');
    const e = await rejection(`Bearer ${unknown}`);
    expect(e).toMatchObject({ status: 401, type: 'authentication_error', code: 'api_key_invalid' });
    expect(e.message).toContain(`sk_live_****${unknown.slice(-4)}`);
    expect(e.message).not.toContain(unknown);
    expect(e.headers['WWW-Authenticate']).toBe('Bearer realm="graph-history"');
    expect((await rejection('Bearer not-a-key-at-all')).message).not.toContain('not-a-key-at-all');
    expect((await rejection(undefined)).code).toBe('api_key_invalid');
  });

  it('stops accepting a revoked key once the 5 s cache expires', async () => {
    await auth.authenticate(`Bearer ${secret}`);
    await keys.revoke('key_1', 2);
    await expect(auth.authenticate(`Bearer ${secret}`)).resolves.toBeDefined();
    clock += 5_001;
    expect((await rejection(`Bearer ${secret}`)).code).toBe('api_key_invalid');
  });
});
