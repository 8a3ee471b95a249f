import type { Page } from 'playwright-core';
import { noticeRun } from '../support/notice-events';
import { seriousViolations } from './support/axe';
import { screenshot } from './support/browser';
import { ViewerHarness } from './support/viewer-harness';

interface Shown {
  title: string;
  body: string;
  tag: string;
}

/**
 * Records the page's browser notifications instead of showing them (a headless browser shows
 * none): permission starts undecided, the person's answer is `grant`.
 */
const FAKE_NOTIFICATIONS = `
  window.__shown = [];
  window.Notification = class {
    // kept across the tab's page loads, as a browser keeps a site's permission
    static permission = sessionStorage.getItem('__permission') ?? 'default';
    static async requestPermission() {
      sessionStorage.setItem('__permission', 'granted');
      return (window.Notification.permission = 'granted');
    }
    constructor(title, options) {
      this.title = title;
      window.__shown.push({ title, body: options.body, tag: options.tag, note: this });
    }
  };
  window.__sources = [];
  const RealEventSource = window.EventSource;
  window.EventSource = class extends RealEventSource {
    constructor(url, init) {
      super(url, init);
      window.__sources.push(this);
    }
  };
`;

/** Waits until the page's notice stream is open (it follows from then on). */
const noticeStreamOpen = (page: Page) =>
  page.waitForFunction(() =>
    (globalThis as unknown as { __sources: EventSource[] }).__sources.some(
      (s) => s.url.includes('/api/v1/notices/stream') && s.readyState === 1,
    ),
  );

/** In-page alerts and browser notifications of new notices, linking to their moment. */
describe('viewer: notices', () => {
  let h: ViewerHarness;
  let page: Page;
  let t0 = 1_763_770_000_000;

  const send = (graphKey: string) => h.ingest(graphKey, noticeRun(graphKey, (t0 += 1_000)));
  const shown = () =>
    page.evaluate(() =>
      (globalThis as unknown as { __shown: Shown[] }).__shown.map(({ title, body, tag }) => ({
        title,
        body,
        tag,
      })),
    );

  beforeAll(async () => {
    h = await ViewerHarness.start({ STREAM_POLL_MS: '200' });
    page = await h.page();
    await page.addInitScript(FAKE_NOTIFICATIONS);
    await send('first');
    await h.signedIn('/graphs', h.api.secret, page);
    await page.waitForSelector('table.graphs');
  }, 120_000);
  afterAll(() => h?.stop());

  it('shows an alert per new notice of any share, linking to its moment', async () => {
    // what happened before the page opened is not announced again
    await noticeStreamOpen(page);
    await page.waitForTimeout(300);
    expect(await page.locator('.notice-alert').count()).toBe(0);
    // the header offers browser notifications before any alert, off until asked for
    const notify = page.getByRole('button', { name: 'Notify me' });
    expect(await notify.getAttribute('aria-pressed')).toBe('false');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'notices-notify-off');
    await send('second');
    await page.locator('.notice-alert').nth(4).waitFor();
    const texts = await page.locator('.notice-alert p').allInnerTexts();
    expect(texts).toEqual([
      'session "notices second" ended (completed)',
      'agent "plan" failed: gave up',
      // the event's own node (plan) first, then the others it changed
      'agent "read" is in a wait cycle (a deadlock)',
      'agent "plan" is in a wait cycle (a deadlock)',
      'agent "read" needs you (permission: Allow rm -rf build?)',
    ]);
    const listed = (await h.api.get('/api/v1/notices?graph=gph_second')).json.data;
    const hrefs = await page
      .locator('.notice-alert a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(
      listed.map((n: { url: string }) => new URL(n.url).pathname + new URL(n.url).search),
    );
    await screenshot(page, 'notices-alerts');
    // no browser notification until the person allows them
    expect(await shown()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('dismisses an alert', async () => {
    const before = await page.locator('.notice-alert').count();
    await page.locator('.notice-alert button').first().click();
    expect(await page.locator('.notice-alert').count()).toBe(before - 1);
  });

  it('sends browser notifications once allowed, each opening its moment', async () => {
    const notify = page.getByRole('button', { name: 'Notify me' });
    await notify.click();
    await page.locator('.notify[aria-pressed="true"]').waitFor();
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { Notification: { permission: string } }).Notification
            .permission,
      ),
    ).toBe('granted');
    await send('third');
    await page.waitForFunction(
      () => (globalThis as unknown as { __shown: unknown[] }).__shown.length >= 5,
    );
    const notes = await shown();
    const listed = (await h.api.get('/api/v1/notices?graph=gph_third')).json.data;
    expect(notes.map((n) => n.tag)).toEqual(listed.map((n: { id: string }) => n.id).reverse());
    expect(notes[0]).toEqual({
      title: 'Needs you · gph_third',
      body: 'agent "read" needs you (permission: Allow rm -rf build?)',
      tag: listed[4].id,
    });
    // a click on the notification opens the share at the moment of the notice, the node open
    await Promise.all([
      page.waitForURL((u) => u.pathname === '/graphs/gph_third' && u.searchParams.has('as_of')),
      page.evaluate(() =>
        (
          globalThis as unknown as { __shown: { note: { onclick(): void } }[] }
        ).__shown[0]!.note.onclick(),
      ),
    ]);
    const url = new URL(page.url());
    expect(url.searchParams.get('as_of')).toBe(listed[4].event_id);
    expect(url.searchParams.get('node')).toBe(listed[4].node_id);
    await page.locator('.node-panel h2', { hasText: 'read' }).waitFor();
    await page.locator('.live-badge', { hasText: 'Paused' }).waitFor();
    // the share page, scrubbed to the moment and with a node open, with an alert shown
    await noticeStreamOpen(page);
    await send('fourth');
    await page.locator('.notice-alert').first().waitFor();
    await screenshot(page, 'notices-on-share-page');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('turns browser notifications off and on from the header, alerts staying', async () => {
    const notify = page.getByRole('button', { name: 'Notify me' });
    expect(await notify.getAttribute('aria-pressed')).toBe('true');
    await notify.click();
    expect(await notify.getAttribute('aria-pressed')).toBe('false');
    const before = (await shown()).length;
    await send('fifth');
    await page.locator('.notice-alert', { hasText: 'notices fifth' }).waitFor();
    await page.waitForTimeout(300);
    expect((await shown()).length).toBe(before);
    // the choice outlives the page
    await page.reload();
    await page.locator('.notify[aria-pressed="false"]').waitFor();
    await page.getByRole('button', { name: 'Notify me' }).click();
    await page.locator('.notify[aria-pressed="true"]').waitFor();
    await screenshot(page, 'notices-notify-on');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('says so when the browser blocks notifications', async () => {
    const blocked = await h.page();
    await blocked.addInitScript(FAKE_NOTIFICATIONS.replace("?? 'default'", "?? 'denied'"));
    await h.signedIn('/graphs', h.api.secret, blocked);
    const notify = blocked.getByRole('button', { name: /Notify me/ });
    await notify.waitFor();
    expect(await notify.getAttribute('aria-disabled')).toBe('true');
    expect(await notify.innerText()).toContain('(blocked)');
    await notify.click({ force: true }); // a press does nothing
    expect(await notify.getAttribute('aria-pressed')).toBe('false');
    await screenshot(blocked, 'notices-notify-blocked');
    expect(await seriousViolations(blocked)).toEqual([]);
    await blocked.close();
  });
});
