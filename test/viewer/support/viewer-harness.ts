import Redis from 'ioredis';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { decodeId, type WatchEvent } from '@graph-history/domain';
import { NoticeRepository } from '@graph-history/db';
import { publishAppliedEvents } from '@graph-history/http';
import { ApiHarness } from '../../api/support/api-harness';
import { testQueuePrefix } from '../../support/redis-keys';
import { launchChromium } from './browser';
import { demoShare } from './demo-share';

/** The read API on a fresh database plus a Chromium to open its viewer pages with. */
export class ViewerHarness {
  private contexts: BrowserContext[] = [];

  private readonly redis = new Redis(process.env.REDIS_URL!);

  private constructor(
    readonly api: ApiHarness,
    readonly browser: Browser,
    private readonly queuePrefix: string,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<ViewerHarness> {
    const queuePrefix = testQueuePrefix();
    const api = await ApiHarness.start({ QUEUE_PREFIX: queuePrefix, ...env });
    try {
      return new ViewerHarness(api, await launchChromium(), queuePrefix);
    } catch (err) {
      await api.stop();
      throw err;
    }
  }

  get baseUrl(): string {
    return this.api.baseUrl.replace('[::1]', '127.0.0.1');
  }

  /** A page in a browser context of its own (its own cookies), 1280×800. */
  async page(): Promise<Page> {
    const context = await this.browser.newContext({ viewport: { width: 1280, height: 800 } });
    this.contexts.push(context);
    return context.newPage();
  }

  /** Opens `path`, is sent to the sign-in form, signs in with `key`, and lands back on `path`. */
  async signedIn(path: string, key = this.api.secret, page?: Page): Promise<Page> {
    const p = page ?? (await this.page());
    await p.goto(`${this.baseUrl}${path}`);
    await p.fill('#key', key);
    await Promise.all([p.waitForNavigation(), p.click('button[type=submit]')]);
    if (new URL(p.url()).pathname === '/sign-in')
      throw new Error(`sign-in refused: ${await p.locator('body').innerText()}`);
    return p;
  }

  /**
   * Appends events to a share as the ingestor does: applied, then announced to event streams
   * (and, with the notices they made, to notice streams).
   */
  async ingest(graphKey: string, events: WatchEvent[]): Promise<void> {
    const { graphId, accountId } = await this.api.seed(graphKey, events);
    const newest = (await this.api.get(`/api/v1/graphs/gph_${graphKey}/events?limit=1`)).json;
    const seq = decodeId('evt', newest.data[0].id)!.n;
    const noticeNo = await new NoticeRepository(this.api.t.db).newest(accountId);
    const notices = noticeNo > 0 ? { accountId, noticeNo } : null;
    await publishAppliedEvents(this.redis, this.queuePrefix, { graphId, seq, notices });
  }

  /** Seeds the demo share (`gph_demo`) and opens it signed in, once its tree is drawn. */
  async demoPage(): Promise<Page> {
    await this.api.seed('demo', demoShare().events);
    const page = await this.signedIn('/graphs/gph_demo');
    await page.waitForSelector('[role=treeitem]');
    return page;
  }

  async stop(): Promise<void> {
    await Promise.all(this.contexts.map((c) => c.close().catch(() => undefined)));
    await this.browser.close();
    await this.api.stop();
    this.redis.disconnect();
  }
}

/** Waits until the tree shows exactly `n` rows. */
export async function waitForRows(page: Page, n: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await page.locator('[role=treeitem]').count();
    if (rows === n) return;
    if (Date.now() > deadline) throw new Error(`the tree shows ${rows} rows, not ${n}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
