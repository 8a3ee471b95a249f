import { claudeCodeAdapter } from '@graph-history/adapters';
import { ofType, run } from './support/adapter-run';
import { nodeOf, replay } from './support/graph-replay';
import { assignedTasks } from './support/task-lines';
import { TranscriptBuilder } from './support/transcript-builder';

/**
 * Shapes of Claude Code 2.1.x that the real fixtures (2.1.39, 1.0.108) do not hold. Every line
 * here is HAND-MADE after the shapes public transcripts and Claude Code's own docs show: the
 * `Agent` spawn tool (renamed from `Task` in 2.1.63), `agent-<id>.meta.json`, TaskUpdate with
 * `addBlockedBy`/`owner`, `compact_boundary` and re-appended rows, rows of a chain broken by
 * attachments, agent teams (`teammate_spawned`, `SendMessage`, `<teammate-message>`),
 * `AskUserQuestion`, and row types this adapter does not know.
 */
const SID = 'sess-today';
const VERSION = '2.1.70';

describe('the Agent spawn tool (2.1.63+)', () => {
  it('creates foreground and background agents like Task did', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const fg = b.agentFile('f1');
    const bg = b.agentFile('b1');
    const { events, problems } = run([
      b.prompt('Go'),
      b.toolUse('T1', 'Agent', {
        description: 'Read',
        prompt: 'Read it',
        subagent_type: 'Explore',
      }),
      b.agentRoot(fg, 'Read it', 'f1'),
      b.toolResult('T1', 'Read.', { toolUseResult: { status: 'completed', agentId: 'f1' } }),
      b.toolUse('T2', 'Agent', {
        description: 'Test',
        prompt: 'Run the tests',
        subagent_type: 'general-purpose',
        run_in_background: true,
      }),
      b.toolResult('T2', 'launched', {
        toolUseResult: { isAsync: true, status: 'async_launched', agentId: 'b1' },
      }),
      b.agentRoot(bg, 'Run the tests', 'b1'),
    ]);
    expect(problems).toEqual([]);
    expect(ofType(events, 'agent.spawned').map((e) => [e.node, e.payload])).toEqual([
      [
        `${SID}/f1`,
        expect.objectContaining({ agent_type: 'Explore', background: false, spawn_call_id: 'T1' }),
      ],
      [`${SID}/b1`, expect.objectContaining({ background: true, spawn_call_id: 'T2' })],
    ]);
    const graph = replay(events);
    expect(nodeOf(graph, `${SID}/f1`).state).toBe('completed');
    expect(nodeOf(graph, `${SID}/b1`).state).toBe('working');
  });
});

describe('agent-<id>.meta.json', () => {
  it('ties agents without progress lines to their spawn call, nested ones under their parent agent', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const a1 = b.agentFile('a1');
    const a2 = b.agentFile('a2');
    const { events, problems } = run([
      b.prompt('Plan'),
      b.toolUse('T1', 'Agent', {
        description: 'Lead the work',
        prompt: 'Lead',
        subagent_type: 'planner',
      }),
      b.agentMeta('a1', {
        agentType: 'planner',
        description: 'Lead the work',
        toolUseId: 'T1',
        spawnDepth: 1,
      }),
      b.agentRoot(a1, 'Lead', 'a1'),
      b.toolUse(
        'T2',
        'Agent',
        { description: 'Dig', prompt: 'Dig deeper', subagent_type: 'Explore' },
        a1,
      ),
      b.agentMeta('a2', {
        agentType: 'Explore',
        description: 'Dig',
        toolUseId: 'T2',
        parentAgentId: 'a1',
        spawnDepth: 2,
      }),
      b.agentRoot(a2, 'Dig deeper', 'a2'),
    ]);
    expect(problems).toEqual([]);
    expect(
      ofType(events, 'agent.spawned').map((e) => [
        e.node,
        e.payload.parent,
        e.payload.spawn_call_id,
      ]),
    ).toEqual([
      [`${SID}/a1`, SID, 'T1'],
      [`${SID}/a2`, `${SID}/a1`, 'T2'],
    ]);
  });

  it('places a nested agent under its parent agent when the parent’s own file is not flushed yet', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const a2 = b.agentFile('a2');
    const { events } = run([
      b.prompt('Plan'),
      b.toolUse('T1', 'Agent', { description: 'Lead', prompt: 'Lead', subagent_type: 'planner' }),
      b.agentProgress('T1', 'a1'),
      b.agentMeta('a2', {
        agentType: 'Explore',
        description: 'Dig',
        toolUseId: 'T2',
        parentAgentId: 'a1',
        spawnDepth: 2,
      }),
      b.agentRoot(a2, 'Dig deeper', 'a2'),
    ]);
    expect(nodeOf(replay(events), `${SID}/a2`)).toMatchObject({
      agentType: 'Explore',
      purpose: 'Dig',
    });
    expect(ofType(events, 'agent.spawned', `${SID}/a2`)[0]!.payload.parent).toBe(`${SID}/a1`);
  });

  it('ties held lines of an agent file once its meta file is written after them', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const a1 = b.agentFile('a1');
    const { events, problems } = run(
      [
        b.prompt('Plan'),
        b.toolUse('T1', 'Agent', { description: 'Lead', prompt: 'Lead', subagent_type: 'planner' }),
        // Not the spawn prompt: only the meta file can tie this file to its call.
        b.agentRoot(a1, 'You lead the planning', 'a1'),
        b.text('Leading', a1),
      ],
      [b.agentMeta('a1', { agentType: 'planner', toolUseId: 'T1', spawnDepth: 1 })],
    );
    expect(problems).toEqual([]);
    expect(
      ofType(events, 'agent.spawned').map((e) => [
        e.node,
        e.payload.spawn_call_id,
        e.payload.link_method,
      ]),
    ).toEqual([[`${SID}/a1`, 'T1', 'spawn_call_id']]);
  });

  it('creates the agent from its meta file before the agent’s own file is flushed, dated by its call', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const spawn = b.toolUse('T1', 'Agent', {
      description: 'Lead',
      prompt: 'Lead',
      subagent_type: 'planner',
    });
    const { events } = run([
      b.prompt('Plan'),
      spawn,
      b.agentMeta('a1', {
        agentType: 'planner',
        description: 'Lead',
        toolUseId: 'T1',
        spawnDepth: 1,
      }),
      b.text('Waiting for the planner'),
    ]);
    const spawned = ofType(events, 'agent.spawned');
    expect(spawned.map((e) => [e.node, e.payload.spawn_call_id])).toEqual([[`${SID}/a1`, 'T1']]);
    expect(spawned[0]!.created).toBe(
      Date.parse((JSON.parse(spawn.text) as { timestamp: string }).timestamp),
    );
    expect(events.map((e) => e.created)).toEqual(
      [...events.map((e) => e.created)].sort((x, y) => x - y),
    );
  });

  it('reports a meta file that is not JSON and goes on', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const meta = b.agentMeta('a1', {});
    const { problems } = run([b.prompt('x'), { ...meta, text: '{"agentType":' }]);
    expect(problems).toEqual([expect.stringMatching(/agent-a1\.meta\.json:1: invalid JSON/)]);
  });
});

describe('task lists of today', () => {
  it('carries TaskUpdate owner, addBlockedBy and addBlocks into the tasks; TodoWrite has neither', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const { events, problems } = run([
      ...assignedTasks(b),
      b.toolUse('U3', 'TaskUpdate', { taskId: '2', addBlocks: ['3'], addBlockedBy: [1] }),
      b.toolUse('U4', 'TaskUpdate', { taskId: '1', owner: '' }),
      b.toolUse('W1', 'TodoWrite', {
        todos: [{ content: 'Ship', status: 'pending', activeForm: 'Shipping' }],
      }),
    ]);
    expect(problems).toEqual([]);
    const updates = ofType(events, 'tasks.updated').map((e) => e.payload.tasks);
    expect(updates.slice(-5)).toEqual([
      [
        { id: '1', content: 'Parse', status: 'pending' },
        { id: '2', content: 'Test', status: 'pending', owner: 'tester', blocked_by: ['1'] },
        { id: '3', content: 'Ship', status: 'pending' },
      ],
      [
        { id: '1', content: 'Parse', status: 'in_progress', owner: 'parser' },
        { id: '2', content: 'Test', status: 'pending', owner: 'tester', blocked_by: ['1'] },
        { id: '3', content: 'Ship', status: 'pending' },
      ],
      [
        { id: '1', content: 'Parse', status: 'in_progress', owner: 'parser' },
        { id: '2', content: 'Test', status: 'pending', owner: 'tester', blocked_by: ['1'] },
        { id: '3', content: 'Ship', status: 'pending', blocked_by: ['2'] },
      ],
      [
        { id: '1', content: 'Parse', status: 'in_progress' },
        { id: '2', content: 'Test', status: 'pending', owner: 'tester', blocked_by: ['1'] },
        { id: '3', content: 'Ship', status: 'pending', blocked_by: ['2'] },
      ],
      [{ content: 'Ship', status: 'pending', active_form: 'Shipping' }],
    ]);
  });
});

describe('compaction and broken chains', () => {
  it('applies rows a second compaction re-appends only once', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const prompt = b.prompt('Build it');
    const spawn = b.toolUse('T1', 'Agent', {
      description: 'Help',
      prompt: 'Help me',
      subagent_type: 'Explore',
    });
    const link = b.agentProgress('T1', 'h1');
    const boundary = b.system('compact_boundary', {
      compactMetadata: { trigger: 'auto', preTokens: 160000 },
      logicalParentUuid: 'u-3',
    });
    const summary = b.line({
      type: 'user',
      isCompactSummary: true,
      message: { role: 'user', content: 'This session is being continued…' },
    });
    const { events, problems } = run(
      [prompt, spawn, link, boundary, summary],
      [prompt, spawn, link, boundary],
    );
    expect(problems).toEqual([]);
    expect(ofType(events, 'agent.spawned')).toHaveLength(1);
    expect(ofType(events, 'title')).toHaveLength(1);
    expect(ofType(events, 'status', SID)).toHaveLength(1);
  });

  it('keeps routing sidechain rows whose parent chain is broken by attachment rows', () => {
    const b = new TranscriptBuilder(SID, '1.0.108');
    const { events } = run([
      b.prompt('Go'),
      b.toolUse('T1', 'Task', {
        description: 'Look',
        prompt: 'Look around',
        subagent_type: 'Explore',
      }),
      b.line({
        type: 'user',
        isSidechain: true,
        message: { role: 'user', content: 'Look around' },
      }),
      b.line({ type: 'attachment', parentUuid: 'u-3', attachment: { type: 'todo_reminder' } }),
      b.line({
        type: 'assistant',
        isSidechain: true,
        parentUuid: 'u-4',
        isApiErrorMessage: true,
        message: { role: 'assistant', content: [{ type: 'text', text: 'API Error: 500' }] },
      }),
    ]);
    const agent = ofType(events, 'agent.spawned')[0]!.node;
    expect(ofType(events, 'attention.raised', agent)).toEqual([
      expect.objectContaining({ payload: { reason: 'error', message: 'API Error: 500' } }),
    ]);
  });

  it('does not take a later parentless row of an agent file for a new root', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const file = b.agentFile('a1');
    const { events, problems } = run([
      b.prompt('Go'),
      b.toolUse('T1', 'Agent', {
        description: 'Look',
        prompt: 'Look around',
        subagent_type: 'Explore',
      }),
      b.agentProgress('T1', 'a1'),
      b.agentRoot(file, 'Look around', 'a1'),
      b.line(
        { type: 'user', parentUuid: null, message: { role: 'user', content: 'Look around' } },
        file,
      ),
      b.text('Looked.', file),
    ]);
    expect(problems).toEqual([]);
    expect(ofType(events, 'agent.spawned')).toHaveLength(1);
  });
});

describe('agent teams', () => {
  it('makes a teammate an agent and its messages message.sent between the nodes, once each', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const mate = b.agentFile('x9');
    const rev = `${SID}/rev@core`;
    const { events, problems } = run([
      b.prompt('Review with a team'),
      b.toolUse('T1', 'Agent', {
        description: 'Reviewer',
        prompt: 'Review the parser',
        subagent_type: 'reviewer',
        name: 'rev',
        team_name: 'core',
      }),
      b.toolResult('T1', 'Spawned rev', {
        toolUseResult: {
          status: 'teammate_spawned',
          teammate_id: 'rev@core',
          agent_id: 'rev@core',
          name: 'rev',
          team_name: 'core',
        },
      }),
      b.toolUse('M1', 'SendMessage', {
        type: 'message',
        recipient: 'rev',
        content: 'Start with lexer.ts',
        summary: 'start',
      }),
      b.agentMeta('x9', { agentType: 'reviewer', name: 'rev', spawnDepth: 1 }),
      b.agentRoot(mate, 'Review the parser', 'x9'),
      b.toolUse(
        'M2',
        'SendMessage',
        { type: 'message', recipient: 'team-lead', content: 'lexer.ts is fine' },
        mate,
      ),
      b.prompt(
        '<teammate-message teammate_id="rev" color="blue" summary="done">\nlexer.ts is fine\n</teammate-message>\n' +
          '<teammate-message teammate_id="rev" color="blue">\n{"type":"idle_notification","from":"rev","idleReason":"available"}\n</teammate-message>',
      ),
      b.prompt(
        '<teammate-message teammate_id="rev" color="blue">\nAlso parser.ts\n</teammate-message>',
      ),
    ]);
    expect(problems).toEqual([]);
    expect(ofType(events, 'agent.spawned')).toEqual([
      expect.objectContaining({
        node: rev,
        payload: expect.objectContaining({ parent: SID, background: true }),
      }),
    ]);
    expect(
      ofType(events, 'message.sent').map((e) => [e.node, e.payload.to, e.payload.text]),
    ).toEqual([
      [SID, rev, 'Start with lexer.ts'],
      [rev, SID, 'lexer.ts is fine'],
      [rev, SID, 'Also parser.ts'],
    ]);
  });
});

describe('attention and the unknown', () => {
  it('raises a question for AskUserQuestion and clears it when the agent goes on', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const { events } = run([
      b.prompt('Pick one'),
      b.toolUse('Q1', 'AskUserQuestion', {
        questions: [
          { question: 'Which database?', header: 'DB', options: [{ label: 'Postgres' }] },
        ],
      }),
      b.toolResult('Q1', 'User answered: Postgres'),
      b.text('Postgres it is.'),
    ]);
    expect(ofType(events, 'attention.raised')).toEqual([
      expect.objectContaining({ payload: { reason: 'question', message: 'Which database?' } }),
    ]);
    expect(ofType(events, 'attention.cleared')).toHaveLength(1);
  });

  it('skips and counts rows of unknown types and ignores unknown fields', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const state = claudeCodeAdapter.initialState();
    const out = claudeCodeAdapter.toEvents(state, [
      b.prompt('hello', undefined, { brandNewField: { nested: true } }),
      b.line({ type: 'hologram', data: 1 }),
      b.line({ type: 'hologram', data: 2 }),
      b.line({ type: 'attachment', attachment: { type: 'file' } }),
    ]);
    expect(out.problems).toEqual([]);
    expect(out.events.map((e) => e.type)).toEqual(['session.started', 'title', 'status']);
    expect(state.skipped).toEqual({ hologram: 2 });
  });
});

describe('hook announcements (hand-made hook payloads)', () => {
  const announce = (state: ReturnType<typeof claudeCodeAdapter.initialState>, payload: object) =>
    claudeCodeAdapter.announce(state, {
      payload: { session_id: SID, transcript_path: `/p/${SID}.jsonl`, ...payload },
      receivedAt: Date.parse('2026-01-01T01:00:00Z'),
    }).events;

  it('creates a started agent with the transcript’s key, which the transcript then does not repeat', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const state = claudeCodeAdapter.initialState();
    const spawn = b.toolUse('T1', 'Agent', {
      description: 'Look',
      prompt: 'Look',
      subagent_type: 'Explore',
    });
    const first = claudeCodeAdapter.toEvents(state, [b.prompt('Go'), spawn]).events;
    const hooked = announce(state, {
      hook_event_name: 'SubagentStart',
      agent_id: 'a1',
      agent_type: 'Explore',
    });
    expect(hooked.map((e) => [e.type, e.key])).toEqual([
      ['agent.spawned', `${SID}/a1:spawned`],
      ['wait.started', expect.stringMatching(new RegExp(`^${SID}:hook-SubagentStart-a1-`))],
    ]);
    const later = claudeCodeAdapter.toEvents(state, [
      b.agentProgress('T1', 'a1'),
      b.toolResult('T1', 'Looked.', { toolUseResult: { status: 'completed', agentId: 'a1' } }),
    ]).events;
    expect(later.map((e) => e.type)).toEqual(['wait.ended', 'ended']);
    expect(new Set([...first, ...hooked, ...later].map((e) => e.key)).size).toBe(
      first.length + hooked.length + later.length,
    );
  });

  it('raises a question for an elicitation, and ignores hooks of sessions it has not seen', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const state = claudeCodeAdapter.initialState();
    claudeCodeAdapter.toEvents(state, [b.prompt('Go')]);
    expect(
      announce(state, {
        hook_event_name: 'Notification',
        notification_type: 'elicitation_dialog',
        message: 'Pick',
      }),
    ).toEqual([
      expect.objectContaining({
        type: 'attention.raised',
        payload: { reason: 'question', message: 'Pick' },
      }),
    ]);
    expect(
      announce(state, { hook_event_name: 'Notification', notification_type: 'idle_prompt' }),
    ).toEqual([]);
    expect(
      claudeCodeAdapter.announce(state, {
        payload: { session_id: 'other', hook_event_name: 'Stop' },
        receivedAt: 1,
      }).events,
    ).toEqual([]);
  });

  it('raises a permission prompt once, whether PermissionRequest or Notification tells it first', () => {
    const b = new TranscriptBuilder(SID, VERSION);
    const state = claudeCodeAdapter.initialState();
    claudeCodeAdapter.toEvents(state, [b.prompt('Go')]);
    expect(
      announce(state, {
        hook_event_name: 'PermissionRequest',
        tool_name: 'Bash',
        tool_input: { command: 'npm test' },
      }),
    ).toEqual([
      expect.objectContaining({
        type: 'attention.raised',
        node: SID,
        payload: { reason: 'permission', message: 'Asks to use Bash npm test' },
      }),
    ]);
    expect(
      announce(state, {
        hook_event_name: 'Notification',
        notification_type: 'permission_prompt',
        message: 'Claude needs your permission to use Bash',
      }),
    ).toEqual([]);
  });
});
