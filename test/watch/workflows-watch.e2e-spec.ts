import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeCodeAdapter } from '@graph-history/adapters';
import { WatchRunner } from '@graph-history/cli/watch/watch-runner';
import { FIXTURES } from './support/fixture-lines';
import { LiveStack, watchGraphKey } from './support/live-stack';

/** `watch --once` over a Claude Code workflow run (hand-made fixture), read back through the API. */
describe('Claude Code workflow runs → watch --once → read API', () => {
  const suite = LiveStack.forSuite('cc-workflows');
  const PROJECT = '-home-USER-projects-shop';
  const DIR = join(FIXTURES, 'workflows');
  const SID = '5b0d3f0e-9c1a-4f7e-8a21-3c9d2e7b6a10';

  it('shows the run’s agents under the session that ran it, ended as its record says', async () => {
    cpSync(DIR, join(suite.tmp, 'projects', PROJECT), { recursive: true });
    const graph = await watchGraphKey(suite.tmp, PROJECT);
    const totals = await new WatchRunner(
      claudeCodeAdapter,
      suite.stack.watchOptions(suite.tmp, PROJECT, { once: true }),
      { info: () => undefined, warn: () => undefined },
    ).run(new AbortController().signal);
    expect(totals.get(graph)).toMatchObject({ skipped: 0 });
    const record = JSON.parse(
      readFileSync(join(DIR, SID, 'workflows', 'wf_3f2a9c1e-7b4.json'), 'utf8'),
    ) as { workflowProgress: Array<{ type: string; agentId?: string; state?: string }> };
    const expected = record.workflowProgress
      .filter((e) => e.type === 'workflow_agent')
      .map((e) => [`${SID}/${e.agentId}`, e.state === 'done' ? 'completed' : 'failed']);
    const nodes = await suite.stack.until('the workflow agents, ended', async () => {
      const all = await suite.stack.nodes(graph);
      return all.filter((n) => n.ended !== null).length === expected.length ? all : undefined;
    });
    const session = nodes.find((n) => n.provider_ref === SID)!;
    expect(
      nodes
        .filter((n) => n.kind === 'agent')
        .map((n) => [n.provider_ref, n.state, n.parent_id, n.agent_type])
        .sort(),
    ).toEqual(expected.map(([ref, state]) => [ref, state, session.id, 'workflow']).sort());
  }, 90_000);
});
