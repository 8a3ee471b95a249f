import type { Page } from 'playwright-core';
import { demoShare } from './support/demo-share';
import { ViewerHarness } from './support/viewer-harness';

/** Every page works under its Content-Security-Policy: Chromium reports no violation. */
describe('viewer: pages under their Content-Security-Policy', () => {
  let h: ViewerHarness;

  beforeAll(async () => {
    h = await ViewerHarness.start();
  }, 120_000);
  afterAll(() => h?.stop());

  /** Collects what the console and the page report about policy violations and errors. */
  function watch(page: Page): string[] {
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(m.text()))
        problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    return problems;
  }

  const maxWidth = (page: Page) => page.evaluate('getComputedStyle(document.body).maxWidth');

  it.each([
    ['/', '704px'],
    ['/docs', '960px'],
    ['/docs/errors', '960px'],
  ])('renders %s with its inline stylesheet allowed by hash', async (path, width) => {
    const page = await h.page();
    const problems = watch(page);
    const res = await page.goto(`${h.baseUrl}${path}`);
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(await maxWidth(page)).toBe(width);
    expect(problems).toEqual([]);
  });

  it('signs in and draws a share with no violation', async () => {
    await h.api.seed('demo', demoShare().events);
    const page = await h.page();
    const problems = watch(page);
    await h.signedIn('/graphs/gph_demo', h.api.secret, page);
    await page.waitForSelector('[role=treeitem]');
    await page.goto(`${h.baseUrl}/graphs`);
    await page.waitForSelector('a[href="/graphs/gph_demo"]');
    expect(problems).toEqual([]);
  });
});
