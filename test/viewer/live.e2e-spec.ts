import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { ViewerHarness } from './support/viewer-harness';
import { EventScript } from '../api/support/watch-events';

/** A running share: new events show within 2 s, highlighted, and the page reconnects by itself. */
describe('viewer: live updates', () => {
  let h: ViewerHarness;
  let page: Page;

  beforeAll(async () => {
    h = await ViewerHarness.start();
    page = await h.demoPage();
    await page.waitForSelector('.live-badge.live');
  }, 120_000);
  afterAll(() => h?.stop());

  it('shows new events within 2 seconds, without a reload, highlighting what changed', async () => {
    const before = await page.locator('.event').count();
    const more = new EventScript(Date.now(), 10)
      .agent('s/docs', 's', { purpose: 'Document the new API', background: true })
      .status('s/tests', 'completed', 'All refund tests pass');
    const sent = Date.now();
    await h.ingest('demo', more.events);
    const row = page.locator('[role=treeitem]', { hasText: 'Document the new API' });
    await row.waitFor({ timeout: 2_000 });
    const tests = page.locator('[role=treeitem]', { hasText: 'Write the missing tests' });
    await tests.locator('text=completed').waitFor({ timeout: 2_000 });
    const waited = Date.now() - sent;
    expect(waited).toBeLessThan(2_000);
    expect(await tests.getAttribute('class')).toContain('flash');
    expect(await page.locator('.counts').innerText()).toMatch(/8\s*nodes/);
    expect(await page.locator('.event').count()).toBeGreaterThan(before);
    expect(await page.locator('.live-badge').innerText()).toContain('Live');
    await screenshot(page, 'live-update');
  });

  it('says when it lost the service, and reconnects by itself', async () => {
    await page.route('**/api/v1/**', (route) => route.abort('connectionrefused'));
    await page.locator('.live-badge.reconnecting').waitFor({ timeout: 10_000 });
    await screenshot(page, 'reconnecting');
    await page.unroute('**/api/v1/**');
    await h.ingest(
      'demo',
      new EventScript(Date.now(), 10).status('s/plan', 'working', 'Permission granted').events,
    );
    await page.locator('.live-badge.live').waitFor({ timeout: 15_000 });
    await page
      .locator('[role=treeitem]', { hasText: 'Map the modules' })
      .locator('text=Permission granted')
      .waitFor({ timeout: 5_000 });
  });
});
