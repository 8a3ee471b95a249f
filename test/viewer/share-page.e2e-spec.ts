import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { ViewerHarness } from './support/viewer-harness';

/** The share page opened in Chromium: tree, counts, node panel, events, swimlanes. */
describe('viewer: the share page', () => {
  let h: ViewerHarness;
  let page: Page;

  beforeAll(async () => {
    h = await ViewerHarness.start();
    page = await h.demoPage();
  }, 120_000);
  afterAll(() => h?.stop());

  const rowText = (name: string) => page.locator('[role=treeitem]', { hasText: name }).innerText();

  it('shows the tree in tree order with states, flags, tasks and headlines', async () => {
    const names = await page.locator('[role=treeitem] .label').allInnerTexts();
    expect(names).toEqual([
      'Refactor the billing service',
      'Map the modules',
      'Find every caller of charge()',
      'Write the missing tests',
      'Fix lint errors',
      'Migrate the schema',
      'Update the API client',
    ]);
    expect(await rowText('Map the modules')).toMatch(/input required[\s\S]*permission/);
    expect(await rowText('Write the missing tests')).toMatch(
      /working[\s\S]*background[\s\S]*1\/2[\s\S]*Writing refund tests/,
    );
    expect(await rowText('Fix lint errors')).toContain('failed');
    expect(await rowText('Migrate the schema')).toContain('cycle');
    const levels = await page
      .locator('[role=treeitem]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-level')));
    expect(levels).toEqual(['1', '2', '3', '2', '2', '2', '2']);
    await screenshot(page, 'share-page');
  });

  it('shows counts by state and the retained range', async () => {
    const counts = await page.locator('.counts').innerText();
    expect(counts).toMatch(/7\s*nodes/);
    expect(counts).toMatch(/1\s*failed/);
    expect(counts).toMatch(/3\s*blocked/); // the session waits on its foreground agent
    expect(counts).toMatch(/History held: \d+ events/);
  });

  it('collapses and expands a subtree', async () => {
    await page
      .locator('[role=treeitem]', { hasText: 'Map the modules' })
      .locator('.toggle')
      .click();
    expect(await page.locator('[role=treeitem]').count()).toBe(6);
    await page
      .locator('[role=treeitem]', { hasText: 'Map the modules' })
      .locator('.toggle')
      .click();
    expect(await page.locator('[role=treeitem]').count()).toBe(7);
  });

  it('opens a node panel with tasks, spawns, waits and messages', async () => {
    await page.locator('[role=treeitem]', { hasText: 'Refactor the billing service' }).click();
    const panel = page.locator('.node-panel');
    await panel.locator('text=Split the invoice code').waitFor();
    const text = await panel.innerText();
    expect(text).toContain('Map the modules'); // a spawn
    expect(text).toContain('Start with the invoice module'); // a message
    expect(text).toMatch(/in progress\s+Split the invoice code/);
    expect(await panel.locator('a', { hasText: 'node' }).getAttribute('href')).toMatch(
      /^\/api\/v1\/graphs\/gph_demo\/nodes\/node_/,
    );
    expect(new URL(page.url()).searchParams.get('node')).toMatch(/^node_/);
    await screenshot(page, 'node-panel');
  });

  it('filters events by type and shows what one changed, from -> to', async () => {
    await page.selectOption('.timeline select', 'status');
    const types = await page.locator('.event .type').allInnerTexts();
    expect(new Set(types)).toEqual(new Set(['status']));
    await page.locator('.event', { hasText: 'eslint crashed' }).click();
    const changes = page.locator('.event-changes');
    await changes.waitFor();
    const text = await changes.innerText();
    expect(text).toContain('Fix lint errors');
    expect(text).toMatch(/state\s+working\s+→\s+failed/);
    await screenshot(page, 'event-changes');
    await page.selectOption('.timeline select', '');
  });

  it('draws the swimlane chart with one lane per node', async () => {
    const label = await page.locator('.swimlane canvas').getAttribute('aria-label');
    expect(label).toContain('7 lanes');
    // coloured (not grey) pixels: the state spells drawn on the canvas (runs in the browser)
    const painted = await page.evaluate(`(() => {
      const c = document.querySelector('.swimlane canvas');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let coloured = 0;
      for (let i = 0; i < d.length; i += 4)
        if (d[i + 3] > 0 && !(d[i] === d[i + 1] && d[i + 1] === d[i + 2])) coloured++;
      return coloured;
    })()`);
    expect(painted).toBeGreaterThan(1_000);
  });
});
