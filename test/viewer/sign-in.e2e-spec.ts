import { screenshot } from './support/browser';
import { demoShare } from './support/demo-share';
import { ViewerHarness } from './support/viewer-harness';
import { EventScript } from '../api/support/watch-events';

/** Signing in and out in a browser, and what another account sees. */
describe('viewer: sign-in, sign-out and other accounts', () => {
  let h: ViewerHarness;

  beforeAll(async () => {
    h = await ViewerHarness.start();
    await h.api.seed('demo', demoShare().events);
    await h.api.seed(
      'theirs',
      new EventScript(Date.now() - 10_000).session('t', { title: 'Secret plan' }).events,
      'globex',
    );
  }, 120_000);
  afterAll(() => h?.stop());

  it('asks for a key, then opens the page asked for; the key is nowhere in the page or URL', async () => {
    const page = await h.page();
    await page.goto(`${h.baseUrl}/graphs/gph_demo`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await screenshot(page, 'sign-in');
    await page.fill('#key', h.api.secret);
    await Promise.all([page.waitForURL(/\/graphs\/gph_demo$/), page.click('button[type=submit]')]);
    await page.waitForSelector('[role=treeitem]');
    expect(page.url()).not.toContain(h.api.secret);
    expect(await page.content()).not.toContain(h.api.secret);
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([
      ['gh_session', true, 'Lax'],
    ]);
    expect(cookies[0]!.value).not.toContain(h.api.secret);
  });

  it('shows a wrong key as an error on the form', async () => {
    const page = await h.page();
    await page.goto(`${h.baseUrl}/sign-in`);
    await page.fill('#key', `sk_live_${'x'.repeat(32)}`);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(await page.locator('[role=alert]').innerText()).toContain('Invalid API key provided');
    expect(await page.content()).not.toContain('x'.repeat(32));
  });

  it('lists the account’s shares, and signs out', async () => {
    const page = await h.signedIn('/graphs');
    await page.waitForSelector('table.graphs');
    const text = await page.locator('table.graphs').innerText();
    expect(text).toContain('gph_demo');
    expect(text).not.toContain('gph_theirs');
    await screenshot(page, 'index');
    await Promise.all([page.waitForURL(/\/sign-in$/), page.click('text=Sign out')]);
    expect(await page.context().cookies()).toEqual([]);
    await page.goto(`${h.baseUrl}/graphs/gph_demo`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
  });

  it("refuses another account's share as missing", async () => {
    const globex = await h.api.key('globex');
    const page = await h.signedIn('/graphs/gph_demo', globex);
    expect(await page.locator('h1').innerText()).toBe('404 resource_missing');
    expect(await page.content()).not.toContain('Refactor the billing service');
    await screenshot(page, 'other-account');
    await page.goto(`${h.baseUrl}/graphs/gph_theirs`);
    await page.waitForSelector('[role=treeitem]');
    expect(await page.locator('h1').innerText()).toBe('Secret plan');
  });
});
