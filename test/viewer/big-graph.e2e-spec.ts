import { screenshot } from './support/browser';
import { ViewerHarness } from './support/viewer-harness';
import { EventScript } from '../api/support/watch-events';

/** A 10,000-node share: only the rows in view are in the page, and it scrolls to the end. */
describe('viewer: a 10,000-node graph', () => {
  let h: ViewerHarness;

  beforeAll(async () => {
    h = await ViewerHarness.start();
    const s = new EventScript(Date.now() - 60_000, 1).session('big', {
      title: 'Ten thousand agents',
    });
    for (let i = 0; i < 99; i++) {
      s.agent(`big/g${i}`, 'big', { purpose: `group ${i}` });
      s.fanOut('big', 100, `big/g${i}`, `g${i}-`);
    }
    await h.api.seed('big', s.events);
  }, 300_000);
  afterAll(() => h?.stop());

  it('paints the first rows at once and renders only the rows in view', async () => {
    const page = await h.signedIn('/graphs');
    const started = Date.now();
    await page.goto(`${h.baseUrl}/graphs/gph_big`);
    await page.waitForSelector('[role=treeitem]');
    const firstPaint = Date.now() - started;
    await page.waitForSelector('.swimlane canvas[aria-label*="10000 lanes"]', { timeout: 30_000 });
    const all = Date.now() - started;
    process.stdout.write(
      `viewer: 10,000-node graph: first rows painted ${firstPaint} ms after navigation, all nodes loaded after ${all} ms\n`,
    );
    expect(await page.locator('.counts').innerText()).toMatch(/10,000\s*nodes/);
    expect(await page.locator('[role=treeitem]').count()).toBeLessThan(100);
    await screenshot(page, 'big-graph');

    await page.locator('.tree').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.locator('[role=treeitem]', { hasText: 'work of big/g98-99' }).waitFor();
    expect(await page.locator('[role=treeitem]').count()).toBeLessThan(100);
    await screenshot(page, 'big-graph-end');
  });
});
