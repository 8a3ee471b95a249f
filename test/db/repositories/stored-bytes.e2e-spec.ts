import { AccountRepository, Db } from '@graph-history/db';
import type { WatchEvent } from '@graph-history/domain';
import { validRun } from '../../ingestor/support/watch-events';
import { ingestPipeline, IngestPipeline } from '../../support/ingest-pipeline';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/**
 * graphs.stored_bytes (the bytes quota's counter) on a real database, through the ingestor's own
 * store -> apply -> trim: at every step it equals what the graph's rows hold, summed from the rows
 * (each stored inbox body's JSON size; each retained event's size as it was stored).
 */
describe('graphs.stored_bytes', () => {
  let t: TestDatabase;
  let p: IngestPipeline;
  let accountId: number;
  /** Each stored event's JSON size, by key, read from its inbox row. */
  const sizeByKey = new Map<string, number>();

  beforeAll(async () => {
    t = await createTestDatabase();
    // small trim chunks: several trim transactions per cut
    p = await ingestPipeline(t.db, { TRIM_CHUNK_SEQS: '300', APPLY_BATCH_SIZE: '250' });
    ({ accountId } = await new AccountRepository(t.db).findOrCreate('bytes', Date.now()));
  });
  afterAll(() => t.drop());

  const counter = async (graphId: number) =>
    (
      await t.db
        .selectFrom('graphs')
        .select('stored_bytes')
        .where('graph_id', '=', graphId)
        .executeTakeFirstOrThrow()
    ).stored_bytes;

  /** What the graph's rows hold: inbox bodies as stored, retained events by their stored size. */
  async function heldInRows(db: Db, graphId: number): Promise<{ bytes: number; rows: number }> {
    const inbox = await db
      .selectFrom('inbox')
      .select('body')
      .where('graph_id', '=', graphId)
      .execute();
    const events = await db
      .selectFrom('events')
      .select('key')
      .where('graph_id', '=', graphId)
      .execute();
    let bytes = 0;
    for (const { body } of inbox) {
      const size = Buffer.byteLength(JSON.stringify(body));
      sizeByKey.set((body as WatchEvent).key, size);
      bytes += size;
    }
    for (const { key } of events) bytes += sizeByKey.get(key)!;
    return { bytes, rows: inbox.length + events.length };
  }

  const store = (graphKey: string, events: WatchEvent[]) =>
    p.store.store({ accountId, graphKey, events });

  it('equals the rows held after every store, apply and trim, and falls when retention trims', async () => {
    const events = validRun('sb', 2_400);
    const other = await store('sb-other', validRun('ot', 40));
    let graphId = 0;
    const checks: { step: string; counter: number; rows: number }[] = [];
    const check = async (step: string) => {
      const held = await heldInRows(t.db, graphId);
      expect({ step, counter: await counter(graphId) }).toEqual({ step, counter: held.bytes });
      checks.push({ step, counter: held.bytes, rows: held.rows });
    };

    for (let i = 0; i < events.length; i += 600) {
      ({ graphId } = await store('sb', events.slice(i, i + 600)));
      await check(`stored ${i + 600}`);
      // a re-sent batch is all duplicates: nothing is stored, nothing counted
      await store('sb', events.slice(i, i + 100));
      await check(`duplicates after ${i + 600}`);
      if (i % 1_200 === 600) {
        await p.applier.applyPending(graphId);
        await check(`applied ${i + 600}`);
      }
    }
    await p.applier.applyPending(graphId);
    await check('applied all');
    const beforeTrim = await counter(graphId);
    expect(await p.trimmer.trim(graphId)).toBeGreaterThan(0);
    await check('trimmed');

    const after = checks[checks.length - 1]!;
    expect(after.rows).toBeGreaterThanOrEqual(1_000);
    expect(after.rows).toBeLessThan(2_000);
    expect(after.counter).toBeLessThan(beforeTrim * 0.6);
    expect(after.counter).toBeGreaterThan(0);
    // every event weighs something: the counter follows the rows, not a constant
    expect(new Set(checks.map((c) => c.counter)).size).toBeGreaterThan(4);
    // the other graph of the account kept its own count
    expect(await counter(other.graphId)).toBe((await heldInRows(t.db, other.graphId)).bytes);
  });
});
