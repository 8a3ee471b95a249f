import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiHarness } from '../../api/support/api-harness';
import { launchChromium } from './browser';
import { demoShare } from './demo-share';

/** The read API on a fresh database plus a Chromium to open its viewer pages with. */
export class ViewerHarness {
  private contexts: BrowserContext[] = [];

  private constructor(
    readonly api: ApiHarness,
    readonly browser: Browser,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<ViewerHarness> {
    const api = await ApiHarness.start(env);
    try {
      return new ViewerHarness(api, await launchChromium());
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
