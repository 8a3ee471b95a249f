import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { screenshot } from './support/browser';
import { ViewerHarness } from './support/viewer-harness';

/** Keyboard use of the tree, visible focus, and axe-core over every view. */
describe('viewer: keyboard and accessibility', () => {
  let h: ViewerHarness;
  let page: Page;

  /** The name of the tree's active row (its aria-activedescendant). */
  async function active(): Promise<string | null> {
    const id = await page.locator('[role=tree]').getAttribute('aria-activedescendant');
    return id ? page.locator(`[id="${id}"] .label`).innerText() : null;
  }

  beforeAll(async () => {
    h = await ViewerHarness.start();
    page = await h.demoPage();
  }, 120_000);
  afterAll(() => h?.stop());

  it('moves through the tree with the arrows, opens with Enter and closes with Esc', async () => {
    await page.locator('[role=tree]').focus();
    expect(await active()).toBe('Refactor the billing service');
    await page.keyboard.press('ArrowDown');
    expect(await active()).toBe('Map the modules');
    await page.keyboard.press('ArrowLeft'); // collapse
    expect(await page.locator('[role=treeitem]').count()).toBe(6);
    await page.keyboard.press('ArrowRight'); // expand
    await page.keyboard.press('ArrowRight'); // into the first child
    expect(await active()).toBe('Find every caller of charge()');
    await page.keyboard.press('ArrowLeft'); // to the parent
    expect(await active()).toBe('Map the modules');
    await page.keyboard.press('End');
    expect(await active()).toBe('Update the API client');
    await page.keyboard.press('Enter');
    await page.locator('.node-panel h2', { hasText: 'Update the API client' }).waitFor();
    const outline = await page.evaluate(
      'getComputedStyle(document.querySelector("[role=treeitem].active")).outlineStyle',
    );
    expect(outline).toBe('solid');
    await screenshot(page, 'keyboard');
    await page.keyboard.press('Escape');
    await page.locator('.node-panel').waitFor({ state: 'detached' });
    expect(await page.evaluate('document.activeElement.getAttribute("role")')).toBe('tree');
  });

  it('has no serious or critical axe-core violation on the share page, with and without the node panel', async () => {
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator('[role=treeitem]', { hasText: 'Refactor the billing service' }).click();
    await page.locator('.node-panel h2', { hasText: 'Refactor the billing service' }).waitFor();
    await page.locator('.event').first().click();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('has no serious or critical axe-core violation scrubbed back, with the later events shown', async () => {
    const other = await h.signedIn('/graphs/gph_demo');
    await other.waitForSelector('[role=treeitem]');
    await other.locator('#scrub').focus();
    await other.keyboard.press('Home');
    for (let i = 0; i < 5; i++) await other.keyboard.press('ArrowRight');
    await other.waitForURL((u) => u.searchParams.has('as_of'));
    await other.locator('.live-badge', { hasText: 'Paused' }).waitFor();
    await screenshot(other, 'a11y-scrubbed');
    expect(await seriousViolations(other)).toEqual([]);
    await other.locator('[role=treeitem]', { hasText: 'Map the modules' }).click();
    await other.locator('.node-panel h2', { hasText: 'Map the modules' }).waitFor();
    expect(await seriousViolations(other)).toEqual([]);
  });

  it('has no serious or critical axe-core violation on the index, sign-in and error pages', async () => {
    const other = await h.page();
    for (const path of ['/sign-in', '/graphs/gph_none']) {
      await other.goto(`${h.baseUrl}${path}`);
      expect(await seriousViolations(other)).toEqual([]);
    }
    await h.signedIn('/graphs', h.api.secret, other);
    await other.waitForSelector('table.graphs');
    expect(await seriousViolations(other)).toEqual([]);
    await other.goto(`${h.baseUrl}/graphs/gph_none`);
    expect(await seriousViolations(other)).toEqual([]);
  });
});
