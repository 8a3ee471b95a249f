import { screenshot } from './support/browser';
import { ViewerHarness } from './support/viewer-harness';

/** /docs: a table of contents, and examples on the server's own base URL. */
describe('viewer: the /docs reference', () => {
  let h: ViewerHarness;
  const publicUrl = 'http://graph-history.test:4100';

  beforeAll(async () => {
    h = await ViewerHarness.start({ PUBLIC_URL: publicUrl });
  }, 120_000);
  afterAll(() => h?.stop());

  it('opens with a table of contents whose links reach their sections', async () => {
    const page = await h.page();
    await page.goto(`${h.baseUrl}/docs`);
    const toc = page.locator('nav.toc');
    await toc.waitFor();
    const links = await toc.locator('a').allInnerTexts();
    expect(links).toEqual(expect.arrayContaining(['Rate limits', 'Stream events', 'Viewer page']));
    await screenshot(page, 'docs-toc');
    await toc.locator('a', { hasText: 'Rate limits' }).click();
    expect(new URL(page.url()).hash).toBe('#rate-limits');
    const heading = (await page.locator('h2#rate-limits').boundingBox())!;
    expect(heading.y).toBeLessThan(100);
  });

  it('writes its examples with the server’s base URL, not port 3000', async () => {
    const page = await h.page();
    await page.goto(`${h.baseUrl}/docs`);
    const text = await page.locator('body').innerText();
    expect(text).toContain(`${publicUrl}/api/v1/graphs/gph_abc/events/stream`);
    expect(text).not.toContain('127.0.0.1:3000/');
    expect(text).not.toContain('api.example.com');
  });
});
