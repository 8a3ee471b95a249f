import { seedGraph } from '../support/seed';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { validRun } from '../ingestor/support/watch-events';
import { cli } from './support/run-cli';

describe('graph-history accounts', () => {
  let t: TestDatabase;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    t = await createTestDatabase();
    env = { DATABASE_URL: t.url };
    expect((await cli(['keys', 'create', '--account', 'acme'], env)).code).toBe(0);
  });
  afterAll(() => t.drop());

  const show = async (extraEnv: NodeJS.ProcessEnv = {}) => {
    const run = await cli(['accounts', 'show', '--account', 'acme', '--json'], {
      ...env,
      ...extraEnv,
    });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(run.stdout) as Record<string, unknown>;
  };

  it('shows an account without graphs against the default quotas (the settings)', async () => {
    expect(await show()).toEqual({
      account: 'acme',
      graphs: { used: 0, limit: 1_000, source: 'default' },
      bytes: { used: 0, limit: 2 * 1024 ** 3, source: 'default' },
      events_per_second: null,
    });
    expect(await show({ ACCOUNT_MAX_GRAPHS: '7', ACCOUNT_MAX_BYTES: '5000' })).toMatchObject({
      graphs: { limit: 7, source: 'default' },
      bytes: { limit: 5_000, source: 'default' },
    });
  });

  it("counts the account's graphs and the bytes their stored events hold", async () => {
    const { graphId } = await seedGraph(t.db, {
      accountName: 'acme',
      graphKey: 'acme-1',
      events: validRun('a1', 30),
    });
    await seedGraph(t.db, { accountName: 'acme', graphKey: 'acme-2', events: validRun('a2', 5) });
    await seedGraph(t.db, { accountName: 'other', graphKey: 'other-1', events: validRun('o', 5) });
    const rows = await t.db
      .selectFrom('graphs')
      .select(['graph_id', 'stored_bytes'])
      .where('graph_key', 'in', ['acme-1', 'acme-2'])
      .execute();
    const bytes = rows.reduce((sum, r) => sum + r.stored_bytes, 0);
    expect(rows.find((r) => r.graph_id === graphId)!.stored_bytes).toBeGreaterThan(30 * 100);
    expect(await show()).toMatchObject({
      graphs: { used: 2, limit: 1_000 },
      bytes: { used: bytes, limit: 2 * 1024 ** 3 },
    });
  });

  it('sets quotas, prints them as a table, and returns one to its default', async () => {
    const run = await cli(
      [
        'accounts',
        'set-quota',
        '--account',
        'acme',
        '--graphs',
        '5',
        '--bytes',
        '10GiB',
        '--events-per-second',
        '50',
      ],
      env,
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('Account "acme"');
    expect(lines[1]).toMatch(/^QUOTA\s+USED\s+LIMIT\s+USE\s+SET BY$/);
    expect(lines[2]).toMatch(/^graphs\s+2\s+5\s+40%\s+account$/);
    expect(lines[3]).toMatch(/^bytes\s+[\d,]+\s+10,737,418,240\s+0%\s+account$/);
    expect(lines[4]).toMatch(/^events\/s\s+-\s+50\s+-\s+account$/);
    expect(
      await t.db
        .selectFrom('account_quotas')
        .innerJoin('accounts', 'accounts.account_id', 'account_quotas.account_id')
        .select(['max_graphs', 'max_bytes', 'events_per_second'])
        .where('name', '=', 'acme')
        .executeTakeFirst(),
    ).toEqual({ max_graphs: 5, max_bytes: 10 * 1024 ** 3, events_per_second: 50 });

    const back = await cli(
      ['accounts', 'set-quota', '--account', 'acme', '--graphs', 'default', '--json'],
      env,
    );
    expect(back.stderr).toBe('');
    expect(back.code).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({
      graphs: { used: 2, limit: 1_000, source: 'default' },
      bytes: { limit: 10 * 1024 ** 3, source: 'account' },
      events_per_second: 50,
    });
    // the other account keeps the defaults
    const other = await cli(['accounts', 'show', '--account', 'other', '--json'], env);
    expect(JSON.parse(other.stdout)).toMatchObject({
      graphs: { used: 1, source: 'default' },
      events_per_second: null,
    });
  });

  it('refuses an unknown account, a bad value and a set-quota without a quota, with one line each', async () => {
    const unknown = await cli(['accounts', 'show', '--account', 'nobody'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'error: No account is named "nobody"; create one with `keys create --account NAME`.\n',
    );
    for (const value of ['0', '-3', '1.5', 'lots', '5GB']) {
      const bad = await cli(['accounts', 'set-quota', '--account', 'acme', '--bytes', value], env);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain('expected an integer from 1');
    }
    const none = await cli(['accounts', 'set-quota', '--account', 'acme'], env);
    expect(none).toMatchObject({
      code: 1,
      stderr: 'error: set-quota needs --graphs, --bytes or --events-per-second.\n',
    });
    expect(await show()).toMatchObject({ bytes: { limit: 10 * 1024 ** 3 } });
  });
});
