import { type IssuedKey, Services } from './support/services';
import { WatchScript } from './support/watch-events';

/**
 * ingest.md: "The answer comes only after every event of the batch is durably stored (a crash
 * after the answer loses nothing)."
 */
describe('conformance: ingest durability', () => {
  let s: Services;
  let acme: IssuedKey;

  beforeAll(async () => {
    s = await Services.start();
    acme = await s.createKey('acme');
  }, 90_000);
  afterAll(() => s?.stop());

  it('loses nothing answered with 202 when the ingestor is killed right after answering', async () => {
    const script = new WatchScript(1_763_770_000_000, 10).session('s');
    for (let i = 0; i < 1_999; i++) script.activity('s', `step ${i}`);
    const [first, second] = [script.events.slice(0, 1_000), script.events.slice(1_000)];
    expect((await s.ingest('durable', first, acme.auth)).status).toBe(202);
    const answer = await s.ingest('durable', second, acme.auth);
    expect(answer.status).toBe(202);
    await s.crashIngestor();
    // Recovery after a crash may take longer than the second of normal operation.
    await s.waitForEventCount(acme.auth, 'durable', 2_000, 45_000);
    const newest = (await s.read('/graphs/gph_durable/events?limit=1', acme.auth)).data[0];
    expect(newest.payload).toEqual({ summary: 'step 1998' });
    const again = await s.ingest('durable', second, acme.auth);
    expect(again.body).toEqual({ accepted: 0, duplicates: 1_000, last_key: second[999]!.key });
  });
});
