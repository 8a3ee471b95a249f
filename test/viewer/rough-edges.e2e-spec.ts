import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { screenshot } from './support/browser';
import { demoShare } from './support/demo-share';
import { ViewerHarness } from './support/viewer-harness';
import { EventScript } from '../api/support/watch-events';

const YEAR_MS = 365 * 24 * 3_600_000;

/** What a newcomer tripped on: quiet shares shown as live, raw Markdown, a list left behind. */
describe('viewer: rough edges', () => {
  let h: ViewerHarness;

  beforeAll(async () => {
    h = await ViewerHarness.start();
    await h.api.seed('demo', demoShare().events);
    const old = new EventScript(Date.now() - YEAR_MS, 1_000)
      .session('old', { title: 'Last year’s review' })
      .status(
        'old',
        'working',
        '## Comprehensive review\n\n- **all** modules read\n- see `src/app.ts`',
      );
    await h.api.seed('old', old.events);
  }, 120_000);
  afterAll(() => h?.stop());

  it('shows a share silent for a year as quiet since then, not as live now', async () => {
    const page = await h.signedIn('/graphs/gph_old');
    await page.waitForSelector('[role=treeitem]');
    const badge = page.locator('.live-badge');
    await badge.locator('text=last active').waitFor({ timeout: 10_000 });
    const year = String(new Date(Date.now() - YEAR_MS).getFullYear());
    expect(await badge.innerText()).not.toMatch(/\bLive\b/);
    expect(await badge.innerText()).toContain(year);
    expect(await page.locator('.scrub-label').innerText()).toContain(year);
    // the scrubber's Live toggle is not lit either
    expect(await page.locator('.scrubber button.live-on').count()).toBe(0);
    await screenshot(page, 'quiet-share');
  });

  it('shows summaries as plain text, never raw Markdown', async () => {
    const page = await h.signedIn('/graphs/gph_old');
    const row = page.locator('[role=treeitem]', { hasText: 'Last year’s review' });
    await row.waitFor();
    expect(await row.locator('.headline').innerText()).toBe('Comprehensive review');
    await row.click();
    const summary = page.locator('.node-panel .summary');
    await summary.waitFor();
    const text = await summary.innerText();
    expect(text).toContain('Comprehensive review');
    expect(text).toContain('• all modules read');
    expect(text).not.toMatch(/##|\*\*|`/);
    await screenshot(page, 'plain-summary');
  });

  it('lists shares by title and provider, says what needs attention, and filters them', async () => {
    const page = await h.signedIn('/graphs');
    const demo = page.locator('table.graphs tbody tr', { hasText: 'Refactor the billing service' });
    await demo.waitFor({ timeout: 10_000 });
    const old = page.locator('table.graphs tbody tr', { hasText: 'Last year’s review' });
    await old.waitFor();
    expect(await demo.innerText()).toMatch(/claude-code/);
    expect(await demo.innerText()).toMatch(/1 input required\s+3 blocked\s+1 failed/);
    expect(await old.innerText()).not.toMatch(/input required|blocked|failed/);
    expect(await old.innerText()).not.toMatch(/\bnow\b/);
    await screenshot(page, 'index-titles');
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('input[type=search]', 'billing');
    expect(await page.locator('table.graphs tbody tr').count()).toBe(1);
    await page.fill('input[type=search]', '');
    await page.check('text=only shares that need attention');
    expect(await page.locator('table.graphs tbody tr').allInnerTexts()).toEqual([
      expect.stringContaining('Refactor the billing service'),
    ]);
  });

  it('moves the events list to the moment scrubbed to', async () => {
    const page: Page = await h.signedIn('/graphs/gph_demo');
    await page.setViewportSize({ width: 1280, height: 500 });
    await page.waitForSelector('[role=treeitem]');
    await page.locator('#scrub').focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.waitForURL((u) => u.searchParams.has('as_of'));
    const moment = page.locator('.event.moment');
    await moment.waitFor();
    const list = (await page.locator('.event-list').boundingBox())!;
    const row = (await moment.boundingBox())!;
    expect(row.y).toBeGreaterThanOrEqual(list.y);
    expect(row.y + row.height).toBeLessThanOrEqual(list.y + list.height);
    expect(await moment.getAttribute('aria-current')).toBe('time');
    await screenshot(page, 'scrubbed-events-list');
  });
});

describe('viewer: layout at 1440 and 420 px', () => {
  let h: ViewerHarness;

  beforeAll(async () => {
    h = await ViewerHarness.start();
    await h.api.seed('demo', demoShare().events);
  }, 120_000);
  afterAll(() => h?.stop());

  /** Texts of the elements matching `selector` whose content is cut (wider than their box). */
  const cut = (page: Page, selector: string) =>
    page.$$eval(selector, (els) =>
      els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent),
    );

  it('cuts no event type, node name or lane label at 1440 px', async () => {
    const page = await h.signedIn('/graphs/gph_demo');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.waitForSelector('[role=treeitem]');
    await page.waitForTimeout(300);
    await screenshot(page, 'layout-1440');
    expect(await cut(page, '.event .type')).toEqual([]);
    expect(await cut(page, '[role=treeitem] .label')).toEqual([]);
    expect(await cut(page, '.event .who')).toEqual([]);
  });

  it('gives the tree the width of the screen at 420 px', async () => {
    const page = await h.signedIn('/graphs/gph_demo');
    await page.setViewportSize({ width: 420, height: 860 });
    await page.waitForSelector('[role=treeitem]');
    await screenshot(page, 'layout-420');
    const tree = (await page.locator('.tree-pane').boundingBox())!;
    expect(tree.width).toBeGreaterThanOrEqual(400);
    expect(await cut(page, '[role=treeitem] .label')).toEqual([]);
  });
});
