import { screenshot } from './support/browser';
import { ViewerHarness } from './support/viewer-harness';
import { EventScript } from '../api/support/watch-events';

/**
 * The viewer under the service's default rate limits (100 a second, bursts of 200 per key): a
 * share of 2,000 events opens without a single 429, every event loaded.
 */
describe('viewer: default rate limits', () => {
  let h: ViewerHarness;

  beforeAll(async () => {
    h = await ViewerHarness.start({ RATE_LIMIT_PER_SECOND: '100', RATE_LIMIT_BURST: '200' });
    const s = new EventScript(Date.now() - 2_100 * 20, 20).session('s', {
      title: 'Two thousand events',
    });
    for (let i = 0; i < 20; i++) s.agent(`s/a${i}`, 's', { purpose: `agent ${i}` });
    while (s.events.length < 2_000) s.activity(`s/a${s.events.length % 20}`);
    await h.api.seed('busy', s.events);
  }, 120_000);
  afterAll(() => h?.stop());

  it('opens a share of 2,000 events with no 429, all events loaded', async () => {
    const page = await h.page();
    const refused: string[] = [];
    page.on('response', (r) => r.status() === 429 && refused.push(r.url()));
    page.on('console', (m) => /429/.test(m.text()) && refused.push(m.text()));
    await h.signedIn('/graphs/gph_busy', h.api.secret, page);
    await page.waitForSelector('[role=treeitem]');
    // the scrubber's range spans every retained event once they are all loaded
    await page.waitForSelector('.scrubber input[type=range][max="1999"]', { timeout: 30_000 });
    await page.reload();
    await page.waitForSelector('.scrubber input[type=range][max="1999"]', { timeout: 30_000 });
    await screenshot(page, 'rate-limits-2000-events');
    expect(refused).toEqual([]);
  }, 90_000);
});
