import type { WatchEvent } from '@graph-history/domain';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { ViewerHarness, waitForRows } from './support/viewer-harness';

const T0 = Date.UTC(2026, 10, 27, 9, 0, 0);
const source = (provider: string, adapter: string) => ({
  provider,
  provider_version: '1.0.0',
  adapter,
});
const claude = source('claude-code', 'claude-code-hooks/1');
const codex = source('codex', 'codex-rollout/1');

/** One project shared by two providers side by side: a Claude Code session and a Codex one. */
const events = [
  {
    key: 'c:s',
    type: 'session.started',
    node: 'c1',
    payload: { title: 'Fix the login bug' },
    source: claude,
  },
  {
    key: 'c:a',
    type: 'agent.spawned',
    node: 'c1/a1',
    payload: { parent: 'c1', agent_type: 'Explore', purpose: 'Find the bug' },
    source: claude,
  },
  {
    key: 'x:s',
    type: 'session.started',
    node: 'x1',
    payload: { title: 'Write the docs' },
    source: codex,
  },
  {
    key: 'x:a',
    type: 'agent.spawned',
    node: 'x1/t2',
    payload: { parent: 'x1', agent_type: 'worker', purpose: 'Draft the README', background: true },
    source: codex,
  },
].map((e, i) => ({ ...e, created: T0 + i * 1_000 })) as WatchEvent[];

/** The viewer names the provider of each node: a badge on each provider's tree, and in the panel. */
describe('viewer: which provider each node came from', () => {
  let h: ViewerHarness;
  let page: Page;

  beforeAll(async () => {
    h = await ViewerHarness.start();
    await h.api.seed('two-providers', events);
    page = await h.signedIn('/graphs/gph_two-providers');
    await waitForRows(page, 4);
  }, 120_000);
  afterAll(() => h?.stop());

  const row = (name: string) => page.locator('[role=treeitem]', { hasText: name });

  it('badges each session with its provider; agents under it inherit it', async () => {
    expect(await row('Fix the login bug').locator('.provider').innerText()).toBe('Claude Code');
    expect(await row('Write the docs').locator('.provider').innerText()).toBe('Codex');
    expect(await row('Write the docs').locator('.provider').getAttribute('title')).toBe(
      'provider: codex',
    );
    expect(await row('Find the bug').locator('.provider').count()).toBe(0);
    expect(await row('Draft the README').locator('.provider').count()).toBe(0);
    await screenshot(page, 'providers-tree');
  });

  it("names an agent's provider in its node panel", async () => {
    await row('Draft the README').click();
    const panel = page.locator('.node-panel');
    await panel.locator('.provider').waitFor();
    expect(await panel.locator('.provider').innerText()).toBe('Codex');
    expect(await panel.locator('dl.facts').innerText()).toMatch(/provider\s+Codex/);
    await screenshot(page, 'providers-panel');
  });
});
