import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { demoShare } from './support/demo-share';
import { ViewerHarness } from './support/viewer-harness';

const SONNET = 'claude-sonnet-4-5-20250929';

/** Usage on the share page (issue 31): graph totals, per-node and subtree columns, sorting. */
describe('viewer: usage', () => {
  let h: ViewerHarness;
  let page: Page;

  beforeAll(async () => {
    h = await ViewerHarness.start();
    const script = demoShare();
    script.time = Date.now() - 5_000;
    script
      .usage('s', SONNET, { input: 1_200, output: 800, cacheRead: 40_000, cacheWrite: 2_000 })
      .usage('s/plan/grep', SONNET, { input: 300, output: 200 })
      .usage('s/tests', SONNET, { input: 90_000, output: 30_000, cacheRead: 1_000_000 })
      .usage('s/tests', 'mystery-model', { input: 10, output: 10 });
    await h.api.seed('use', script.events);
    page = await h.signedIn('/graphs/gph_use');
    await page.waitForSelector('[role=treeitem]');
  }, 120_000);
  afterAll(() => h?.stop());

  const names = () => page.locator('[role=treeitem] .label').allInnerTexts();
  const row = (name: string) => page.locator('[role=treeitem]', { hasText: name });

  it("shows the graph's tokens and estimated cost beside the counts", async () => {
    // 1,164,520 tokens in all
    expect(await page.locator('.counts .usage').innerText()).toMatch(
      /1\.2M tokens · est\. \$\d+\.\d\d/,
    );
  });

  it('shows each row its subtree tokens and cost, with its own tokens in the tooltip', async () => {
    expect(await row('Write the missing tests').locator('.tokens').innerText()).toBe('1.1M');
    expect(await row('Find every caller of charge()').locator('.tokens').innerText()).toBe('500');
    expect(await row('Map the modules').locator('.tokens').innerText()).toBe('500');
    expect(await row('Refactor the billing service').locator('.tokens').getAttribute('title')).toBe(
      'subtree 1,164,520 tokens; own 44,000',
    );
    expect(await row('Fix lint errors').locator('.cost').innerText()).toBe('$0.00');
  });

  it('orders siblings by their subtree tokens on request, and back', async () => {
    const treeOrder = await names();
    await page.selectOption('.tree-sort select', 'tokens');
    expect((await names()).slice(0, 2)).toEqual([
      'Refactor the billing service',
      'Write the missing tests',
    ]);
    expect(await names()).not.toEqual(treeOrder);
    await screenshot(page, 'usage-sorted');
    await page.selectOption('.tree-sort select', 'tree');
    expect(await names()).toEqual(treeOrder);
  });

  it("lists a node's usage by model in its panel, an unknown model without a price", async () => {
    await row('Write the missing tests').click();
    const table = page.locator('.usage-table');
    await table.waitFor();
    const text = await table.innerText();
    expect(text).toContain(SONNET);
    expect(text).toMatch(/mystery-model[\s\S]*—/);
    await screenshot(page, 'usage-panel');
  });
});
