/**
 * Watch-to-viewer latency benchmark (`pnpm bench:watch-to-viewer`), issue 29's first target:
 * starts the built ingestor and read API on 127.0.0.1 against a fresh database, runs the built
 * `graph-history watch` (with its hook inbox) on a live transcript, opens the share in the viewer
 * in Chromium (signed in, following live by its event stream), then, after each idle spell,
 * appends one prompt line and runs the hook command as Claude Code would, and times line written
 * to shown: the moment the page's event count (the Events panel's "all types (N)") grows, as a
 * MutationObserver in the page sees it. Prints p50/p99/max and the load average.
 * Needs DATABASE_URL (a server where it may create and drop `gh_bench_watch_viewer`), REDIS_URL
 * and /usr/bin/chromium (CHROMIUM_PATH). BENCH_WTV_SAMPLES (default 20), BENCH_WTV_IDLE_MS
 * (idle spell before each line, default 3000).
 */
import { ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/viewer/support/browser';
import { stopServer } from './support/child-server';
import { withIngestAndApi } from './support/ingest-api-stack';
import { loadAverage } from './support/machine-load';
import { fireHook, percentile, promptHook, promptLine, startWatch } from './support/watch-run';

const setting = (name: string, fallback: number): number =>
  Number(process.env[`BENCH_WTV_${name}`] ?? fallback);
const SAMPLES = setting('SAMPLES', 20);
const IDLE_MS = setting('IDLE_MS', 3_000);
const QUEUE_PREFIX = 'gh-bench-wtv';
const GRAPH = 'bench-viewer';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Records in the page every change of its event count, with the time (same clock as Node's). */
const COUNT_RECORDER = `
  window.__counts = [];
  const read = () => {
    const o = document.querySelector('.timeline select option[value=""]');
    const m = o && /\\((\\d+)\\)/.exec(o.textContent || '');
    const n = m ? Number(m[1]) : -1;
    const last = window.__counts[window.__counts.length - 1];
    if (!last || last.n !== n) window.__counts.push({ n, at: Date.now() });
  };
  new MutationObserver(read).observe(document, { subtree: true, childList: true, characterData: true });
`;

const shownCount = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const c = (globalThis as unknown as { __counts: { n: number }[] }).__counts;
    return c.length ? c[c.length - 1]!.n : -1;
  });

/** When the page's count first exceeded `n` (ms since the epoch). */
async function shownAfter(page: Page, n: number, timeoutMs = 15_000): Promise<number> {
  const handle = await page.waitForFunction(
    (before) =>
      (globalThis as unknown as { __counts: { n: number; at: number }[] }).__counts.find(
        (c) => c.n > before,
      )?.at,
    n,
    { timeout: timeoutMs, polling: 50 },
  );
  return (await handle.jsonValue()) as number;
}

async function main(): Promise<void> {
  const setup = {
    databaseEnv: 'BENCH_WTV_DB',
    databaseName: 'gh_bench_watch_viewer',
    account: 'bench-wtv',
    queuePrefix: QUEUE_PREFIX,
  };
  await withIngestAndApi(setup, async (stack) => {
    const children: ChildProcess[] = [];
    const tmp = mkdtempSync(path.join(tmpdir(), 'gh-bench-wtv-'));
    const browser = await launchChromium();
    try {
      const project = path.join(tmp, 'projects', `-bench-${GRAPH}`);
      mkdirSync(project, { recursive: true });
      const sessionId = `bench-${GRAPH}`;
      const transcript = path.join(project, `${sessionId}.jsonl`);
      const inbox = path.join(tmp, 'hooks');
      children.push(
        startWatch({
          project,
          graph: GRAPH,
          ingestUrl: stack.ingestUrl,
          secret: stack.secret,
          windowMs: 1_000,
          inbox,
          dataDir: path.join(tmp, 'data'),
        }),
      );
      for (let i = 0; i < 100 && !existsSync(path.join(inbox, 'watch.pid')); i++) await sleep(100);
      let ts = Date.now();
      const write = async (i: number): Promise<number> => {
        ts = Math.max(ts + 1, Date.now());
        appendFileSync(transcript, `${JSON.stringify(promptLine(sessionId, i, ts))}\n`);
        const at = Date.now();
        void fireHook(inbox, promptHook(sessionId, transcript, i));
        return at;
      };
      // the share exists once its first line is in
      await write(0);
      for (let i = 0; ; i++) {
        const r = await fetch(`${stack.apiUrl}/api/v1/graphs/gph_${GRAPH}/events?limit=1`, {
          headers: { authorization: stack.auth },
        });
        if (r.ok) break;
        if (i > 200) throw new Error(`the share never appeared (${r.status})`);
        await sleep(100);
      }
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript(COUNT_RECORDER);
      await page.goto(`${stack.apiUrl}/graphs/gph_${GRAPH}`);
      await page.fill('#key', stack.secret);
      await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
      await page.locator('.timeline select').waitFor();
      await page.locator('.live-badge', { hasText: 'Live' }).waitFor();

      console.log(
        `watch → viewer bench: ${SAMPLES} lines, each after ${IDLE_MS} ms idle; watch with hooks, viewer in Chromium`,
      );
      const latencies: number[] = [];
      for (let i = 1; i <= SAMPLES; i++) {
        await sleep(IDLE_MS);
        const before = await shownCount(page);
        const written = await write(i);
        latencies.push((await shownAfter(page, before)) - written);
      }
      const sorted = [...latencies].sort((a, b) => a - b);
      console.log(
        `line written → shown in the viewer: p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms, max ${sorted[sorted.length - 1]} ms (${sorted.length} samples)`,
      );
      console.log(`  samples (ms): ${latencies.join(' ')}`);
      console.log(`  ${loadAverage()}`);
      await context.close();
    } finally {
      await browser.close();
      for (const child of children.reverse()) await stopServer(child);
      rmSync(tmp, { recursive: true, force: true });
    }
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
