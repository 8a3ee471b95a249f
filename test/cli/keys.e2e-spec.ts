import { sql } from 'kysely';
import { hashApiKey } from '@graph-history/domain';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { cli } from './support/run-cli';

describe('graph-history keys', () => {
  let t: TestDatabase;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    t = await createTestDatabase();
    env = { DATABASE_URL: t.url };
  });
  afterAll(() => t.drop());

  const keyRows = (account: string) =>
    t.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.account_id', 'api_keys.account_id')
      .selectAll('api_keys')
      .where('accounts.name', '=', account)
      .orderBy('api_keys.created')
      .execute();

  it('creates the account and a secret key, stores only its hash, and prints the clear key once', async () => {
    const run = await cli(['keys', 'create', '--account', 'acme'], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const key = /\b(sk_live_[A-Za-z0-9]{32})\b/.exec(run.stdout)![1]!;
    expect(run.stdout).toContain('shown only once');

    const [row] = await keyRows('acme');
    expect(row).toMatchObject({
      kind: 'secret',
      graph_keys: null,
      revoked: null,
      masked: `sk_live_****${key.slice(-4)}`,
    });
    expect(Buffer.compare(row!.hash, hashApiKey(key))).toBe(0);
    const dump = await sql<{
      dump: string;
    }>`select string_agg(t::text, ' ') as dump from api_keys t`.execute(t.db);
    expect(dump.rows[0]!.dump).not.toContain(key);
    expect(dump.rows[0]!.dump).not.toContain(key.slice(8, 24));
  });

  it('prints { key, id, account } with --json and reuses an existing account', async () => {
    const before = await t.db
      .selectFrom('accounts')
      .select('account_id')
      .where('name', '=', 'acme')
      .executeTakeFirstOrThrow();
    const run = await cli(['keys', 'create', '--account', 'acme', '--json'], env);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, string>;
    expect(Object.keys(out).sort()).toEqual(['account', 'id', 'key']);
    expect(out.account).toBe('acme');
    expect(out.key).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
    const row = await t.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_id', '=', out.id!)
      .executeTakeFirstOrThrow();
    expect(row.account_id).toBe(before.account_id);
    expect(Buffer.compare(row.hash, hashApiKey(out.key!))).toBe(0);
  });

  it('creates restricted keys that read only the listed graphs', async () => {
    const run = await cli(
      [
        'keys',
        'create',
        '--account',
        'acme',
        '--restricted',
        'gph_alpha, gph_beta-2,gph_alpha',
        '--json',
      ],
      env,
    );
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { key: string; id: string };
    expect(out.key).toMatch(/^rk_live_/);
    const row = await t.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_id', '=', out.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'restricted', graph_keys: ['alpha', 'beta-2'] });
  });

  it('lists keys masked, with kind, restricted graphs, created and revoked', async () => {
    const run = await cli(['keys', 'list', '--account', 'acme'], env);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+KIND\s+KEY\s+GRAPHS\s+CREATED\s+REVOKED$/);
    expect(lines).toHaveLength(4);
    expect(run.stdout).not.toMatch(/(sk|rk)_live_[A-Za-z0-9]{32}/);
    expect(lines[3]).toMatch(
      /restricted\s+rk_live_\*{4}\w{4}\s+gph_alpha,gph_beta-2\s+\d{4}-\d\d-\d\dT/,
    );

    // One JSON object per line, as every --json of the CLI prints.
    const json = (await cli(['keys', 'list', '--account', 'acme', '--json'], env)).stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown) as {
      id: string;
      masked_key: string;
      graph_ids: string[] | null;
    }[];
    expect(json).toHaveLength(3);
    expect(json[2]!.graph_ids).toEqual(['gph_alpha', 'gph_beta-2']);
    expect(json[0]!.masked_key).toMatch(/^sk_live_\*{4}\w{4}$/);
  });

  it('revokes a key once, says so when it is already revoked, and refuses unknown ids', async () => {
    const [row] = await keyRows('acme');
    const first = await cli(['keys', 'revoke', row!.key_id], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Revoked key_\w+ \(sk_live_\*{4}\w{4}\)/);
    const revoked = await t.db
      .selectFrom('api_keys')
      .select('revoked')
      .where('key_id', '=', row!.key_id)
      .executeTakeFirstOrThrow();
    expect(revoked.revoked).toEqual(expect.any(Number));

    const again = await cli(['keys', 'revoke', row!.key_id], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already revoked');
    const still = await t.db
      .selectFrom('api_keys')
      .select('revoked')
      .where('key_id', '=', row!.key_id)
      .executeTakeFirstOrThrow();
    expect(still.revoked).toBe(revoked.revoked);

    const unknown = await cli(['keys', 'revoke', 'key_missing'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/^error: No API key has the id "key_missing"[^\n]*\n$/);
  });

  it.each([
    [['keys', 'create', '--account', 'acme', '--restricted', 'alpha'], /"alpha" is not a graph id/],
    [['keys', 'create', '--account', 'acme', '--restricted', ','], /at least one graph id/],
    [['keys', 'create', '--account', ' padded'], /Invalid account name/],
    [['keys', 'create'], /required option '--account <name>'/],
    [['keys', 'list', '--account', 'nobody'], /No account is named "nobody"/],
  ])('refuses bad input %j with one clear line and a non-zero exit', async (args, message) => {
    const count = await t.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const run = await cli(args, env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.split('\n')[0]).toMatch(/^error: /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const after = await t.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(count.n));
  });

  it('reports an unreachable database in one line', async () => {
    const run = await cli(['keys', 'list', '--account', 'acme'], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: Postgres at 127\.0\.0\.1:1 refused the connection \(.*\): start it or fix DATABASE_URL, or unset DATABASE_URL to use the embedded Postgres\.\n$/,
    );
  });

  it('migrate says the database is up to date when it is', async () => {
    const run = await cli(['migrate'], env);
    expect(run).toEqual({ code: 0, stdout: 'The database is up to date.\n', stderr: '' });
  });
});
