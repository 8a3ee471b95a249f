import { sql } from 'kysely';
import { transcriptKeyRule } from '@graph-history/adapters';
import { AccountRepository, HookKeyRepository } from '@graph-history/db';
import { ingestPipeline } from '../../support/ingest-pipeline';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

const source = { provider: 'claude-code', provider_version: '1', adapter: 'test/1' };
const event = (key: string, type: string, node: string, payload: object = {}) => ({
  key,
  type,
  created: 1_000,
  node,
  source,
  payload,
});

/**
 * The keys the Claude Code hook endpoint decides by, on the real database: in byte order with the
 * primary key's range (this database's collation), and by scanning the graph's keys (any other).
 */
describe('HookKeyRepository', () => {
  let t: TestDatabase;
  let accountId: number;
  const repos = () => {
    const ranged = new HookKeyRepository(t.db);
    const scanning = new HookKeyRepository(t.db);
    (scanning as unknown as { byteOrder: Promise<boolean> }).byteOrder = Promise.resolve(false);
    return { ranged, scanning };
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    ({ accountId } = await new AccountRepository(t.db).findOrCreate('hooks', 1));
    const { store } = await ingestPipeline(t.db);
    await store.store({
      accountId,
      graphKey: 'hk',
      events: [
        event('S:started', 'session.started', 'S'),
        event('S:title', 'title', 'S', { title: 't' }),
        event('S:turn:p1:working', 'status', 'S', { state: 'working' }),
        event('S:hook.Stop:0000000001000:status', 'status', 'S', { state: 'idle' }),
        event('S:hook.ask:0000000001000', 'attention.raised', 'S', { reason: 'permission' }),
        event('S:hook.ask:0000000002000', 'attention.raised', 'S', { reason: 'permission' }),
        event('S:hook.answered:0000000001000', 'attention.cleared', 'S'),
        event('T:started', 'session.started', 'T'),
        event('T:u-1:0', 'title', 'T', { title: 'from a transcript line' }),
        // a session whose id extends S's: its keys are not S's
        event('S2:started', 'session.started', 'S2'),
        event('S2:u-9:0', 'title', 'S2', { title: 'x' }),
      ],
    });
  });
  afterAll(() => t.drop());

  it('tells a session fed by a transcript from one only hooks fed, both ways of reading', async () => {
    for (const repo of Object.values(repos())) {
      expect(await repo.transcriptFeeds(accountId, 'hk', transcriptKeyRule('S'))).toBe(false);
      expect(await repo.transcriptFeeds(accountId, 'hk', transcriptKeyRule('T'))).toBe(true);
      expect(await repo.transcriptFeeds(accountId, 'hk', transcriptKeyRule('U'))).toBe(false);
      // another account's graph of that key is not read
      expect(await repo.transcriptFeeds(accountId + 1, 'hk', transcriptKeyRule('T'))).toBe(false);
      expect(await repo.transcriptFeeds(accountId, 'nope', transcriptKeyRule('T'))).toBe(false);
    }
  });

  it('finds the newest ask and answer of a node, both ways of reading', async () => {
    for (const repo of Object.values(repos())) {
      expect(await repo.newestOf(accountId, 'hk', ['S:hook.ask:', 'S:hook.answered:'])).toEqual([
        'S:hook.ask:0000000002000',
        'S:hook.answered:0000000001000',
      ]);
      expect(await repo.newestOf(accountId, 'hk', ['T:hook.ask:', 'T:hook.answered:'])).toEqual([
        null,
        null,
      ]);
    }
  });

  it('gives key ranges only where the database sorts text as bytes do', async () => {
    const { rows } = await sql<{
      bytes: boolean;
    }>`select ('B' < 'a' and '~' > 'z' and ':' < 'A') as bytes`.execute(t.db);
    const repo = new HookKeyRepository(t.db);
    expect(
      await (repo as unknown as { sortsInByteOrder(): Promise<boolean> }).sortsInByteOrder(),
    ).toBe(rows[0]!.bytes);
  });
});
