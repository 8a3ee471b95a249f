import fc from 'fast-check';
import { claudeCodeAdapter, claudeCodeHookEvents, hookViewNeeds } from '@graph-history/adapters';
import { nodeOf, replay } from './support/graph-replay';
import { IngestSim } from './support/ingest-sim';
import { TranscriptBuilder } from './support/transcript-builder';

/**
 * Hook payloads posted to the ingestor (`hooks install --http`), turned into events by
 * `claudeCodeHookEvents`, alone and beside the transcript of the same session. Payloads are
 * hand-made after the Agent SDK's hook input types (BaseHookInput: session_id, transcript_path,
 * cwd, agent_id?, agent_type?; SubagentStart/Stop, PermissionRequest, …).
 */
const SID = 'c0ffee00-0000-4000-8000-000000000001';
const T0 = Date.UTC(2026, 10, 27, 9, 0, 0);
const base = { session_id: SID, transcript_path: `/p/${SID}.jsonl`, cwd: '/work/app' };

const hook = (name: string, fields: Record<string, unknown> = {}) => ({
  ...base,
  hook_event_name: name,
  ...fields,
});

/** A session that spawns a foreground agent `f1`, which finishes, then the turn ends. */
function transcript() {
  const b = new TranscriptBuilder(SID, '2.1.90');
  const f1 = b.agentFile('f1');
  return claudeCodeAdapter.toEvents(claudeCodeAdapter.initialState(), [
    b.prompt('Fix the login bug'),
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
  ]).events;
}

/** The hooks Claude Code posts for that same session. */
const hooksOfTheSession = [
  hook('SessionStart', { source: 'startup' }),
  hook('UserPromptSubmit', { prompt: 'Fix the login bug' }),
  hook('SubagentStart', { agent_id: 'f1', agent_type: 'Explore' }),
  hook('PostToolUse', { agent_id: 'f1', agent_type: 'Explore', tool_name: 'Read', tool_input: {} }),
  hook('SubagentStop', {
    agent_id: 'f1',
    agent_type: 'Explore',
    last_assistant_message: 'Found in auth.ts',
    stop_hook_active: false,
  }),
  hook('Stop', { last_assistant_message: 'Fixed.', stop_hook_active: false }),
];

const count = (sim: IngestSim, type: string, node?: string) =>
  sim.stored.filter((e) => e.type === type && (node === undefined || e.node === node)).length;

describe('Claude Code hooks posted to the ingestor', () => {
  it('creates the session from its first hook, before any transcript is read', () => {
    const sim = new IngestSim();
    sim.hook(hook('UserPromptSubmit', { prompt: 'Fix the login bug\nplease' }), T0);
    expect(sim.stored.map((e) => [e.type, e.key])).toEqual([
      ['session.started', `${SID}:started`],
      ['title', `${SID}:title`],
      ['status', expect.stringMatching(new RegExp(`^${SID}:hook\\.UserPromptSubmit:`))],
    ]);
    expect(sim.stored.every((e) => e.source.adapter === 'claude-code-hooks/1')).toBe(true);
    expect(nodeOf(sim.state, SID)).toMatchObject({
      state: 'working',
      title: 'Fix the login bug\nplease',
    });
  });

  it('alone, gives the session, its agent, states and the agent end', () => {
    const sim = new IngestSim();
    hooksOfTheSession.forEach((p, i) => sim.hook(p, T0 + i * 1_000));
    expect(nodeOf(sim.state, `${SID}/f1`)).toMatchObject({
      kind: 'agent',
      state: 'completed',
      agentType: 'Explore',
    });
    expect(nodeOf(sim.state, SID).state).toBe('idle');
  });

  it('after the transcript, adds no node, no end, no title and no state twice', () => {
    const sim = new IngestSim();
    const fromTranscript = transcript();
    expect(sim.store(fromTranscript).dropped).toBe(0);
    const before = sim.stored.length;
    const results = hooksOfTheSession.map((p, i) => sim.hook(p, T0 + 60_000 + i * 1_000));
    expect(sim.stored.slice(before).map((e) => [e.type, e.key])).toEqual([]);
    expect(results.every((r) => r.accepted === 0 && r.dropped === 0)).toBe(true);
  });

  it('before the transcript, the transcript adds no second node, end or title', () => {
    const sim = new IngestSim();
    hooksOfTheSession.forEach((p, i) => sim.hook(p, T0 + i * 1_000));
    const result = sim.store(transcript());
    expect(result.dropped).toBe(0);
    for (const [type, node] of [
      ['session.started', SID],
      ['agent.spawned', `${SID}/f1`],
      ['ended', `${SID}/f1`],
      ['title', SID],
    ] as const)
      expect(count(sim, type, node)).toBe(1);
    expect(sim.state.nodes.size).toBe(2);
    expect(new Set(sim.stored.map((e) => e.key)).size).toBe(sim.stored.length);
  });

  it('a prompt the hook names (prompt_id) and the transcript names (promptId) sets the session working once', () => {
    const sim = new IngestSim();
    sim.hook(hook('UserPromptSubmit', { prompt: 'Go', prompt_id: 'p-1' }), T0);
    const b = new TranscriptBuilder(SID, '2.1.220');
    const out = claudeCodeAdapter.toEvents(claudeCodeAdapter.initialState(), [
      b.prompt('Go', undefined, { promptId: 'p-1' }),
      b.text('Done.'),
      b.system('turn_duration', { durationMs: 10 }),
    ]);
    expect(out.events.filter((e) => e.type === 'status').map((e) => e.key)).toEqual([
      `${SID}:turn:p-1:working`,
      expect.not.stringContaining(':turn:'),
    ]);
    expect(sim.store(out.events).dropped).toBe(0);
    expect(count(sim, 'status', SID)).toBe(2); // the hook's working was the transcript's
    // a later prompt of the same session, hooked after the transcript feeds it: no hook status
    expect(
      sim.hook(hook('UserPromptSubmit', { prompt: 'More', prompt_id: 'p-2' }), T0 + 9_000),
    ).toMatchObject({ accepted: 0 });
  });

  it('raises attention on a permission request and clears it once, on the answer', () => {
    const sim = new IngestSim();
    const inAgent = { agent_id: 'a9', agent_type: 'general-purpose' };
    sim.hook(
      hook('PermissionRequest', {
        ...inAgent,
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf build' },
      }),
      T0,
    );
    expect(nodeOf(sim.state, `${SID}/a9`).attention).toEqual({
      reason: 'permission',
      message: 'Asks to use Bash rm -rf build',
      since: T0,
    });
    sim.hook(hook('PostToolUse', { ...inAgent, tool_name: 'Bash', tool_input: {} }), T0 + 5_000);
    sim.hook(hook('PostToolUse', { ...inAgent, tool_name: 'Read', tool_input: {} }), T0 + 6_000);
    expect(nodeOf(sim.state, `${SID}/a9`).attention).toBeNull();
    expect(count(sim, 'attention.cleared')).toBe(1);
    sim.hook(
      hook('Notification', { notification_type: 'elicitation_dialog', message: 'Which DB?' }),
      T0 + 7_000,
    );
    expect(nodeOf(sim.state, SID).attention).toMatchObject({
      reason: 'question',
      message: 'Which DB?',
    });
  });

  it('depends only on the parts of the view hookViewNeeds names (the ingestor reads no other)', () => {
    const names = [
      'SessionStart',
      'UserPromptSubmit',
      'SubagentStart',
      'SubagentStop',
      'PermissionRequest',
      'PostToolUse',
      'PostToolUseFailure',
      'PermissionDenied',
      'Notification',
      'Elicitation',
      'ElicitationResult',
      'Stop',
      'StopFailure',
      'TaskCreated',
      'TaskCompleted',
      'TeammateIdle',
      'SessionEnd',
    ];
    for (const name of names) {
      const payload = hook(name, {
        agent_id: 'a1',
        prompt: 'go',
        notification_type: 'permission_prompt',
      });
      const needs = hookViewNeeds(payload);
      const full = claudeCodeHookEvents(payload, T0, { transcriptFeeds: true, openAskAt: T0 - 1 });
      const masked = claudeCodeHookEvents(payload, T0, {
        transcriptFeeds: needs.transcriptFeeds,
        ...(needs.openAsk ? { openAskAt: T0 - 1 } : {}),
      });
      expect(masked).toEqual(full);
      const none = claudeCodeHookEvents(payload, T0, { transcriptFeeds: false });
      if (!needs.transcriptFeeds && !needs.openAsk) expect(none).toEqual(full);
    }
  });

  it('refuses a payload without a session id', () => {
    const sim = new IngestSim();
    expect(() => sim.hook({ hook_event_name: 'Stop' }, T0)).toThrow(/session_id/);
  });

  it('property: hooks and the transcript interleaved in any order give each node and fact once', () => {
    const b = new TranscriptBuilder(SID, '2.1.220');
    const f1 = b.agentFile('f1');
    const lines = [
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
    const hooks = hooksOfTheSession.map((p) =>
      p.hook_event_name === 'UserPromptSubmit' ? { ...p, prompt_id: 'p-1' } : p,
    );
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: lines.length }), { maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: hooks.length + 5, maxLength: hooks.length + 5 }),
        (cuts, picks) => {
          // the transcript's lines in chunks (the watcher's passes), hooks in their own order
          const bounds = [...new Set([0, ...cuts, lines.length])].sort((x, y) => x - y);
          const chunks = bounds.slice(1).map((end, i) => lines.slice(bounds[i], end));
          const state = claudeCodeAdapter.initialState();
          const sim = new IngestSim();
          let h = 0;
          let at = T0;
          let dropped = 0;
          for (const hookFirst of picks) {
            if ((hookFirst || chunks.length === 0) && h < hooks.length)
              sim.hook(hooks[h++]!, (at += 500));
            else if (chunks.length > 0)
              sim.store(claudeCodeAdapter.toEvents(state, chunks.shift()!).events);
          }
          for (const chunk of chunks)
            dropped += sim.store(claudeCodeAdapter.toEvents(state, chunk).events).dropped;
          while (h < hooks.length) sim.hook(hooks[h++]!, (at += 500));
          replay(sim.stored);
          expect(dropped).toBe(0); // the watch never has an event refused
          expect(sim.state.nodes.size).toBe(2);
          for (const [type, node] of [
            ['session.started', SID],
            ['agent.spawned', `${SID}/f1`],
            ['ended', `${SID}/f1`],
            ['title', SID],
          ] as const)
            expect(count(sim, type, node)).toBe(1);
          expect(
            sim.stored.filter(
              (e) =>
                e.type === 'status' &&
                (e.payload as { state: string }).state === 'working' &&
                e.node === SID,
            ),
          ).toHaveLength(1);
          expect(nodeOf(sim.state, `${SID}/f1`).state).toBe('completed');
        },
      ),
      { numRuns: 150 },
    );
  });

  it('any sequence of hooks, re-posted or not, gives a stream ingest takes, each fact once', () => {
    const agents = ['a1', 'a2', 'a3'];
    const payload = fc.oneof(
      fc.constantFrom(...hooksOfTheSession),
      fc
        .record({
          name: fc.constantFrom(
            'SubagentStart',
            'SubagentStop',
            'PermissionRequest',
            'PostToolUse',
            'PostToolUseFailure',
            'TaskCreated',
            'TeammateIdle',
            'Notification',
            'StopFailure',
            'UserPromptSubmit',
            'Stop',
            'SessionEnd',
          ),
          agent: fc.option(fc.constantFrom(...agents), { nil: undefined }),
        })
        .map(({ name, agent }) =>
          hook(name, {
            ...(agent ? { agent_id: agent, agent_type: 'worker' } : {}),
            tool_name: 'Bash',
            tool_input: { command: 'ls' },
            notification_type: 'permission_prompt',
            prompt: 'go',
            task_subject: 'a task',
            error: 'rate_limit',
          }),
        ),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(payload, fc.boolean()), { maxLength: 40 }), (posts) => {
        const sim = new IngestSim();
        posts.forEach(([p, twice], i) => {
          sim.hook(p, T0 + i * 1_000);
          if (twice) expect(sim.hook(p, T0 + i * 1_000).accepted).toBe(0);
        });
        replay(sim.stored); // the real reducer throws on anything ingest refuses
        const keys = sim.stored.map((e) => e.key);
        expect(new Set(keys).size).toBe(keys.length);
        for (const type of ['session.started', 'agent.spawned', 'ended', 'title'])
          for (const node of new Set(sim.stored.map((e) => e.node)))
            expect(count(sim, type, node)).toBeLessThanOrEqual(1);
      }),
      { numRuns: 150 },
    );
  });
});
