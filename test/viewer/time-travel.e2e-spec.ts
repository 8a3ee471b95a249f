import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { ViewerHarness, waitForRows } from './support/viewer-harness';

/** The scrubber reads earlier moments with as_of; the URL holds the moment and the node. */
describe('viewer: time travel and deep links', () => {
  let h: ViewerHarness;
  let page: Page;
  let events: { id: string; type: string }[];

  const treeNames = () => page.locator('[role=treeitem] .label').allInnerTexts();

  beforeAll(async () => {
    h = await ViewerHarness.start();
    page = await h.demoPage();
    events = (await h.api.get('/api/v1/graphs/gph_demo/events?order=asc&limit=100')).json.data;
  }, 120_000);
  afterAll(() => h?.stop());

  it('scrubs to an earlier event: tree, counts and URL show that moment', async () => {
    // the 6th event spawns the second agent: three nodes exist just after it
    const target = events[5]!;
    expect(target.type).toBe('agent.spawned');
    await page.locator('#scrub').focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await page.waitForURL((u) => u.searchParams.get('as_of') === target.id);
    await waitForRows(page, 3);
    expect(await treeNames()).toEqual([
      'Refactor the billing service',
      'Map the modules',
      'Find every caller of charge()',
    ]);
    const api = (await h.api.get(`/api/v1/graphs/gph_demo?as_of=${target.id}`)).json;
    expect(await page.locator('.counts').innerText()).toMatch(
      new RegExp(`${api.counts.nodes}\\s*nodes`),
    );
    expect(await page.locator('.live-badge').innerText()).toContain('Paused');
    await screenshot(page, 'scrubbed');
  });

  it('goes back to the present with Live', async () => {
    await page.click('.scrubber button');
    await page.waitForURL((u) => !u.searchParams.has('as_of'));
    await waitForRows(page, 7);
    await page.locator('.live-badge.live').waitFor();
  });

  it('opens a deep link at exactly that moment with that node selected', async () => {
    const at = events[12]!.id;
    const node = (await h.api.get(`/api/v1/graphs/gph_demo/nodes?as_of=${at}&order=tree`)).json
      .data[1];
    const link = `/graphs/gph_demo?as_of=${at}&node=${node.id}`;
    const other = await h.page();
    await other.context().addCookies(await page.context().cookies());
    await other.goto(`${h.baseUrl}${link}`);
    await other.locator('.node-panel h2', { hasText: 'Map the modules' }).waitFor();
    expect(await other.locator('[role=treeitem][aria-selected=true] .label').innerText()).toBe(
      'Map the modules',
    );
    const api = (await h.api.get(`/api/v1/graphs/gph_demo?as_of=${at}`)).json;
    expect(await other.locator('[role=treeitem]').count()).toBe(api.counts.nodes);
    expect(await other.locator('.live-badge').innerText()).toContain('Paused');
    expect(new URL(other.url()).search).toBe(`?as_of=${at}&node=${node.id}`);
    await screenshot(other, 'deep-link');
  });

  it('shows a moment that is no longer held as live, saying why', async () => {
    const other = await h.page();
    await other.context().addCookies(await page.context().cookies());
    await other.goto(`${h.baseUrl}/graphs/gph_demo?as_of=1000`);
    expect(await other.locator('[role=alert]').innerText()).toContain(
      'That moment cannot be shown',
    );
    await waitForRows(other, 7);
  });
});
