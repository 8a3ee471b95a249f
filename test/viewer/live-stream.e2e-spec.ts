import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { demoShare } from './support/demo-share';
import { ViewerHarness } from './support/viewer-harness';
import { EventScript } from '../api/support/watch-events';

/** The page follows a share by its event stream: nothing is polled while the share is idle. */
describe('viewer: follows by the event stream', () => {
  let h: ViewerHarness;
  let page: Page;
  const requests: string[] = [];

  beforeAll(async () => {
    h = await ViewerHarness.start();
    page = await h.page();
    page.on('request', (r) => requests.push(r.url()));
    await h.api.seed('demo', demoShare().events);
    await h.signedIn('/graphs/gph_demo', h.api.secret, page);
    await page.waitForSelector('[role=treeitem]');
    await page.waitForSelector('.live-badge.live');
  }, 120_000);
  afterAll(() => h?.stop());

  it('opens the stream with the session cookie, polls nothing while idle, and shows a new agent', async () => {
    await new Promise((r) => setTimeout(r, 500));
    const streams = requests.filter((u) => u.includes('/events/stream'));
    expect(streams.length).toBeGreaterThanOrEqual(1);
    const idleFrom = requests.length;
    await new Promise((r) => setTimeout(r, 3_000));
    const polled = requests.slice(idleFrom).filter((u) => /\/events\?/.test(u));
    expect(polled).toEqual([]);

    const more = new EventScript(Date.now(), 10).agent('s/docs', 's', {
      purpose: 'Document the new API',
      background: true,
    });
    await h.ingest('demo', more.events);
    await page
      .locator('[role=treeitem]', { hasText: 'Document the new API' })
      .waitFor({ timeout: 2_000 });
    expect(requests.slice(idleFrom).filter((u) => /\/events\?/.test(u))).toEqual([]);
    await screenshot(page, 'live-stream-new-agent');
  });

  it('falls back to polling when the stream keeps failing, and still shows new events', async () => {
    const other = await h.page();
    await other.route('**/events/stream*', (route) => route.abort('connectionrefused'));
    const polls: string[] = [];
    other.on('request', (r) => /\/events\?/.test(r.url()) && polls.push(r.url()));
    await h.signedIn('/graphs/gph_demo', h.api.secret, other);
    await other.waitForSelector('[role=treeitem]');
    const more = new EventScript(Date.now(), 10).agent('s/review', 's', {
      purpose: 'Review the pull request',
      background: true,
    });
    await h.ingest('demo', more.events);
    await other
      .locator('[role=treeitem]', { hasText: 'Review the pull request' })
      .waitFor({ timeout: 20_000 });
    expect(polls.some((u) => u.includes('starting_after'))).toBe(true);
    await screenshot(other, 'live-stream-fallback');
  }, 40_000);

  it('reloads the share on a gap message, then follows the stream again', async () => {
    const other = await h.page();
    const gap = JSON.stringify({ object: 'gap', code: 'outside_retention_window' });
    await other.route(
      '**/events/stream*',
      (route) =>
        route.fulfill({
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
          body: `retry: 1000\n\nevent: gap\ndata: ${gap}\n\n`,
        }),
      { times: 1 },
    );
    const reads: string[] = [];
    other.on('request', (r) => reads.push(r.url()));
    await h.signedIn('/graphs/gph_demo', h.api.secret, other);
    await other.waitForSelector('[role=treeitem]');
    const listReads = () => reads.filter((u) => /\/events\?order=asc/.test(u)).length;
    const streamOpens = () => reads.filter((u) => u.includes('/events/stream')).length;
    for (let i = 0; i < 100 && (listReads() < 2 || streamOpens() < 2); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(listReads()).toBeGreaterThanOrEqual(2);
    expect(streamOpens()).toBeGreaterThanOrEqual(2);
    await h.ingest(
      'demo',
      new EventScript(Date.now(), 10).agent('s/after-gap', 's', { purpose: 'After the gap' })
        .events,
    );
    await other
      .locator('[role=treeitem]', { hasText: 'After the gap' })
      .waitFor({ timeout: 3_000 });
  }, 40_000);
});
