import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type SourceLine, claudeCodeAdapter } from '@graph-history/adapters';
import { WatchRunner } from '@graph-history/cli/watch/watch-runner';
import { createKey } from './support/api-keys';
import { type ApiEvent, type ApiNode, LiveStack, watchGraphKey } from '../watch/support/live-stack';
import { TranscriptBuilder } from '../watch/support/transcript-builder';

/**
 * `POST /ingest/v1/graphs/{graph_key}/hooks/claude-code` on the built ingestor (real Postgres and
 * Redis), read back through the read API, alone and beside `watch --once` over the transcript of
 * the same session. Hook payloads are hand-made after the Agent SDK's hook input types.
 */
describe('POST /ingest/v1/graphs/{graph_key}/hooks/claude-code', () => {
  const suite = LiveStack.forSuite('cc-hooks');
  const stack = () => suite.stack;

  const postHook = (graph: string, payload: unknown, auth: string | null = stack().key.auth) =>
    fetch(`${stack().ingestor.baseUrl}/ingest/v1/graphs/${graph}/hooks/claude-code`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(auth === null ? {} : { authorization: auth }),
      },
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  const hooksOf = (sid: string, cwd: string) => {
    const hook = (name: string, fields: Record<string, unknown> = {}) => ({
      session_id: sid,
      transcript_path: join(cwd, `${sid}.jsonl`),
      cwd,
      hook_event_name: name,
      ...fields,
    });
    const agent = { agent_id: 'f1', agent_type: 'Explore' };
    return [
      hook('SessionStart', { source: 'startup' }),
      hook('UserPromptSubmit', { prompt: 'Fix the login bug', prompt_id: 'p-1' }),
      hook('SubagentStart', agent),
      hook('PermissionRequest', { ...agent, tool_name: 'Bash', tool_input: { command: 'ls' } }),
      hook('PostToolUse', { ...agent, tool_name: 'Bash', tool_input: { command: 'ls' } }),
      hook('SubagentStop', { ...agent, last_assistant_message: 'Found in auth.ts' }),
      hook('Stop', { last_assistant_message: 'Fixed.', stop_hook_active: false }),
    ];
  };

  /** The transcript of that same session: a prompt, a foreground agent f1 that ends, the turn's end. */
  function writeTranscript(project: string, sid: string): void {
    const b = new TranscriptBuilder(sid, '2.1.90', Date.now() - 60_000);
    const f1 = b.agentFile('f1');
    const lines: SourceLine[] = [
      b.prompt('Fix the login bug', undefined, { promptId: 'p-1' }),
      b.toolUse('T1', 'Agent', {
        description: 'Find it',
        prompt: 'Find it',
        subagent_type: 'Explore',
      }),
      b.agentRoot(f1, 'Find it', 'f1'),
      b.text('Found in auth.ts', f1),
      b.toolResult('T1', 'Found in auth.ts', {
        toolUseResult: { status: 'completed', agentId: 'f1' },
      }),
      b.text('Fixed.'),
      b.system('turn_duration', { durationMs: 10 }),
    ];
    for (const line of lines) {
      const path = join(project, line.file.path);
      mkdirSync(dirname(path), { recursive: true });
      appendFileSync(path, `${line.text}\n`);
    }
  }

  async function watchOnce(projectName: string) {
    const totals = await new WatchRunner(
      claudeCodeAdapter,
      stack().watchOptions(suite.tmp, projectName, { once: true }),
      { info: () => undefined, warn: () => undefined },
    ).run(new AbortController().signal);
    return [...totals.values()][0]!;
  }

  const settled = async (graph: string, count: number): Promise<ApiEvent[]> =>
    stack().until(`${count} events of ${graph}`, async () => {
      const events = await stack().events(graph);
      return events.length >= count ? events : undefined;
    });

  /** Every node and event of the graph, once the ingestor applied everything it stored. */
  async function graphOf(graph: string): Promise<{ nodes: ApiNode[]; events: ApiEvent[] }> {
    const row = await stack()
      .t.db.selectFrom('graphs')
      .select('ingested_seq')
      .where('graph_key', '=', graph)
      .executeTakeFirstOrThrow();
    const events = await settled(graph, Number(row.ingested_seq));
    return { nodes: await stack().nodes(graph), events };
  }

  function expectEachFactOnce(nodes: ApiNode[], events: ApiEvent[], sid: string) {
    expect(nodes.map((n) => n.provider_ref).sort()).toEqual([sid, `${sid}/f1`]);
    const idOf = (ref: string) => nodes.find((n) => n.provider_ref === ref)!.id;
    const countOf = (type: string, ref: string) =>
      events.filter((e) => e.type === type && e.node_id === idOf(ref)).length;
    expect(countOf('session.started', sid)).toBe(1);
    expect(countOf('title', sid)).toBe(1);
    expect(countOf('agent.spawned', `${sid}/f1`)).toBe(1);
    expect(countOf('ended', `${sid}/f1`)).toBe(1);
    expect(nodes.find((n) => n.provider_ref === `${sid}/f1`)).toMatchObject({
      state: 'completed',
      agent_type: 'Explore',
      attention: null,
    });
  }

  it('raises attention on a live node at once and clears it on the answer', async () => {
    const hook = (name: string, fields: Record<string, unknown>) =>
      postHook('cc-ask', { session_id: 's-ask', cwd: '/w', hook_event_name: name, ...fields });
    const bash = { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } };
    expect((await hook('PermissionRequest', bash)).status).toBe(204);
    const asking = await stack().until('the prompt', async () => {
      const [session] = await stack().nodes('cc-ask');
      return session?.attention ? session : undefined;
    });
    expect(asking.attention).toMatchObject({
      reason: 'permission',
      message: 'Asks to use Bash rm -rf build',
    });
    expect((await hook('PostToolUse', bash)).status).toBe(204);
    expect((await hook('PostToolUse', bash)).status).toBe(204);
    const { nodes, events } = await graphOf('cc-ask');
    expect(nodes[0]!.attention).toBeNull();
    expect(events.map((e) => e.type)).toEqual([
      'session.started',
      'attention.raised',
      'attention.cleared',
    ]);
  });

  it('answers 204, and the first hook of a session creates it, before any transcript', async () => {
    const res = await postHook('cc-first', {
      session_id: 's-first',
      transcript_path: '/p/s-first.jsonl',
      cwd: '/work/app',
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Hello there',
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const { nodes, events } = await graphOf('cc-first');
    expect(nodes).toEqual([
      expect.objectContaining({ provider_ref: 's-first', kind: 'session', state: 'working' }),
    ]);
    expect(events.map((e) => e.type)).toEqual(['session.started', 'title', 'status']);
    const read = await stack().read<{ data: Array<{ source: { adapter: string } }> }>(
      '/graphs/gph_cc-first/events?order=asc',
    );
    expect(read.data.map((e) => e.source.adapter)).toEqual(Array(3).fill('claude-code-hooks/1'));
  });

  it('refuses what the events endpoint refuses, in its envelope, storing nothing', async () => {
    const ok = { session_id: 's', hook_event_name: 'Stop' };
    const restricted = await createKey(stack().t.db, 'cc-hooks', ['cc-refused']);
    const cases: Array<[unknown, string | null, number, Record<string, unknown>]> = [
      [ok, null, 401, { code: 'api_key_invalid' }],
      [ok, restricted.auth, 403, { code: 'api_key_restricted' }],
      ['[1,2]', stack().key.auth, 400, { code: 'parameter_invalid' }],
      [{ hook_event_name: 'Stop' }, stack().key.auth, 400, { param: 'session_id' }],
      [{ session_id: 's' }, stack().key.auth, 400, { param: 'hook_event_name' }],
    ];
    for (const [body, auth, status, error] of cases) {
      const res = await postHook('cc-refused', body, auth);
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: unknown }).error).toMatchObject(error);
    }
    const get = await fetch(
      `${stack().ingestor.baseUrl}/ingest/v1/graphs/cc-refused/hooks/claude-code`,
    );
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const bad = await postHook('bad.key', ok);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: unknown }).error).toMatchObject({ param: 'graph_key' });
    const row = await stack()
      .t.db.selectFrom('graph_directory')
      .selectAll()
      .where('graph_key', '=', 'cc-refused')
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('hooks first, then watch --once over the transcript: each node and fact once', async () => {
    const projectName = '-work-hooks-first';
    const sid = 'a1b2c3d4-0000-4000-8000-00000000000a';
    const graph = await watchGraphKey(suite.tmp, projectName);
    for (const payload of hooksOf(sid, '/work/hooks-first'))
      expect((await postHook(graph, payload)).status).toBe(204);
    const fromHooks = await graphOf(graph);
    expectEachFactOnce(fromHooks.nodes, fromHooks.events, sid);

    writeTranscript(join(suite.tmp, 'projects', projectName), sid);
    const totals = await watchOnce(projectName);
    expect(totals.skipped).toBe(0);
    expect(totals.duplicates).toBeGreaterThanOrEqual(4); // started, spawned, title, ended
    const both = await graphOf(graph);
    expectEachFactOnce(both.nodes, both.events, sid);
    // The prompt both name (prompt_id / promptId) set the session working once.
    const read = await stack().read<{
      data: Array<{ type: string; payload: { state?: string } }>;
    }>(`/graphs/gph_${graph}/events?order=asc&limit=1000`);
    expect(
      read.data.filter((e) => e.type === 'status' && e.payload.state === 'working'),
    ).toHaveLength(1);
  }, 90_000);

  it('watch --once first, then the hooks: the hooks add no event at all', async () => {
    const projectName = '-work-transcript-first';
    const sid = 'a1b2c3d4-0000-4000-8000-00000000000b';
    const graph = await watchGraphKey(suite.tmp, projectName);
    writeTranscript(join(suite.tmp, 'projects', projectName), sid);
    const totals = await watchOnce(projectName);
    expect(totals).toMatchObject({ skipped: 0, duplicates: 0 });
    const before = await graphOf(graph);
    for (const payload of hooksOf(sid, '/work/transcript-first'))
      expect((await postHook(graph, payload)).status).toBe(204);
    const after = await graphOf(graph);
    // Everything is known already; the permission prompt came inside f1, which has ended.
    expect(after.events.slice(before.events.length).map((e) => e.type)).toEqual([]);
    expect(after.events).toHaveLength(before.events.length);
    expectEachFactOnce(after.nodes, after.events, sid);
  }, 90_000);
});
