import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type SourceLine, claudeCodeAdapter } from '@graph-history/adapters';
import { WatchRunner } from '@graph-history/cli/watch/watch-runner';
import { fireHook } from './support/fire-hook';
import { type ApiNode, LiveStack, watchGraphKey } from './support/live-stack';
import { TranscriptBuilder } from './support/transcript-builder';

/**
 * Hooks run ahead of the transcript: with a reorder window far longer than this test may take,
 * only the hooks can make a spawn, a permission prompt and an agent's end readable; when the
 * transcript catches up, it adds nothing twice.
 */
describe('Claude Code hooks → watch → read API', () => {
  const SID = 'hooked-session';
  const PROJECT = '-home-USER-hooked';
  let GRAPH: string;
  const suite = LiveStack.forSuite('watch-hooks');

  it('shows what hooks announce at once and reconciles it with the transcript', async () => {
    GRAPH = await watchGraphKey(suite.tmp, PROJECT);
    const project = join(suite.tmp, 'projects', PROJECT);
    mkdirSync(project, { recursive: true });
    const inbox = join(suite.tmp, 'hooks');
    const write = (...lines: SourceLine[]) =>
      lines.forEach((line) => {
        const path = join(project, line.file.path);
        mkdirSync(dirname(path), { recursive: true });
        appendFileSync(path, `${line.text}\n`);
      });
    const b = new TranscriptBuilder(SID, '2.1.63', Date.now() - 60_000);
    const hook = (payload: Record<string, unknown>) =>
      fireHook(inbox, {
        session_id: SID,
        transcript_path: join(project, `${SID}.jsonl`),
        cwd: '/work/project',
        ...payload,
      });
    const nodes = () => suite.stack.nodes(GRAPH);
    const node = (all: ApiNode[], ref: string) => all.find((n) => n.provider_ref === ref);
    const agentRef = `${SID}/a1`;
    const spawnInput = {
      description: 'Map the repo',
      prompt: 'Map the repo',
      subagent_type: 'Explore',
    };

    const warnings: string[] = [];
    const controller = new AbortController();
    const running = new WatchRunner(
      claudeCodeAdapter,
      suite.stack.watchOptions(suite.tmp, PROJECT, { windowMs: 600_000, hookInbox: inbox }),
      { info: () => undefined, warn: (m) => void warnings.push(m) },
    ).run(controller.signal);

    try {
      await suite.stack.until('the hook inbox', async () =>
        existsSync(join(inbox, 'watch.pid')) ? true : undefined,
      );
      write(b.prompt('Look around'), b.toolUse('T1', 'Agent', spawnInput));
      expect(
        await hook({
          hook_event_name: 'PreToolUse',
          tool_name: 'Agent',
          tool_use_id: 'T1',
          tool_input: spawnInput,
        }),
      ).toBe(0);
      await suite.stack.until('the session', async () => node(await nodes(), SID));

      // The sub-agent's own file is not written yet: only the hook knows it started.
      await hook({ hook_event_name: 'SubagentStart', agent_id: 'a1', agent_type: 'Explore' });
      const spawned = await suite.stack.until('the agent', async () =>
        node(await nodes(), agentRef),
      );
      expect(spawned).toMatchObject({
        kind: 'agent',
        state: 'working',
        agent_type: 'Explore',
        spawn_call_id: 'T1',
      });

      await hook({
        hook_event_name: 'Notification',
        notification_type: 'permission_prompt',
        message: 'Claude needs your permission to use Bash',
      });
      const asking = await suite.stack.until('the permission prompt', async () => {
        const session = node(await nodes(), SID);
        return session?.attention ? session : undefined;
      });
      expect(asking.attention).toMatchObject({ reason: 'permission' });

      // The transcript catches up, then the agent stops before its result line is written.
      const file = b.agentFile('a1');
      write(
        b.agentProgress('T1', 'a1'),
        b.agentRoot(file, 'Map the repo', 'a1'),
        b.text('Mapping', file),
      );
      await hook({
        hook_event_name: 'SubagentStop',
        agent_id: 'a1',
        last_assistant_message: 'Mapped.',
      });
      const ended = await suite.stack.until('the agent’s end', async () => {
        const agent = node(await nodes(), agentRef);
        return agent?.ended ? agent : undefined;
      });
      expect(ended.state).toBe('completed');

      write(
        b.toolResult('T1', 'Mapped.', { toolUseResult: { status: 'completed', agentId: 'a1' } }),
        b.text('All mapped.'),
        b.system('turn_duration'),
      );
      await hook({ hook_event_name: 'Stop' });
      const idle = await suite.stack.until('the session idle', async () => {
        const session = node(await nodes(), SID);
        return session?.state === 'idle' ? session : undefined;
      });
      expect(idle.attention).toBeNull();
    } finally {
      controller.abort();
    }
    const totals = (await running).get(GRAPH)!;
    expect(totals).toMatchObject({ duplicates: 0, skipped: 0 });
    const all = await nodes();
    expect(all.map((n) => n.provider_ref).sort()).toEqual([SID, agentRef]);
    const events = await suite.stack.events(GRAPH);
    expect(events).toHaveLength(totals.accepted);
    expect(events.filter((e) => e.type === 'agent.spawned')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'ended')).toHaveLength(1);
    // The watch started before the session's first line.
    expect(warnings).toEqual([
      expect.stringMatching(/^No Claude Code sessions found in .* Waiting for some to appear\.$/),
    ]);
  }, 120_000);
});
