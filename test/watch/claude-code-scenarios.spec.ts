import { ofType, run } from './support/adapter-run';
import { nodeOf, replay } from './support/graph-replay';
import { TranscriptBuilder } from './support/transcript-builder';

const SID = 'sess-1';

describe('background agents', () => {
  const b = new TranscriptBuilder(SID);
  const agentFile = b.agentFile('bg1');
  const agent = `${SID}/bg1`;
  const lines = [
    b.prompt('Refactor the parser'),
    b.toolUse('T1', 'Task', {
      description: 'Scan the tests',
      prompt: 'Scan every test file',
      subagent_type: 'Explore',
      run_in_background: true,
    }),
    b.toolResult('T1', 'Async agent launched', {
      toolUseResult: { isAsync: true, status: 'async_launched', agentId: 'bg1' },
    }),
    b.agentRoot(agentFile, 'Scan every test file', 'bg1'),
    b.text('Scanning the tests now', agentFile),
    b.toolUse('O1', 'TaskOutput', { task_id: 'bg1', block: true, timeout: 30000 }),
    b.waitingForTask('O1', 'Scan the tests'),
    b.notification('bg1', 'completed', 'Found 12 test files', true),
    b.toolResult('O1', '<status>completed</status>'),
    b.text('Late line after the end', agentFile),
    b.system('turn_duration'),
    b.notification('bg1', 'completed', 'Found 12 test files', false),
  ];
  const { events } = run(lines);

  it('creates the agent as a background child, tied by the spawn call id', () => {
    expect(ofType(events, 'agent.spawned')).toEqual([
      expect.objectContaining({
        node: agent,
        payload: expect.objectContaining({
          parent: SID,
          background: true,
          spawn_call_id: 'T1',
          link_method: 'spawn_call_id',
          agent_type: 'Explore',
          purpose: 'Scan the tests',
        }),
      }),
    ]);
  });

  it('opens one wait for a blocking TaskOutput poll and lets the end close it', () => {
    expect(ofType(events, 'wait.started')).toEqual([
      expect.objectContaining({ node: SID, payload: expect.objectContaining({ on: [agent] }) }),
    ]);
    expect(ofType(events, 'wait.ended')).toEqual([]);
    const endIndex = events.findIndex((e) => e.type === 'ended');
    const blockedBefore = nodeOf(replay(events.slice(0, endIndex)), SID).blocked;
    expect(blockedBefore).not.toBeNull();
    expect(nodeOf(replay(events), SID).blocked).toBeNull();
  });

  it('ends the agent from the task notification and drops its later lines', () => {
    expect(ofType(events, 'ended', agent)).toEqual([
      expect.objectContaining({ payload: { state: 'completed', summary: 'Found 12 test files' } }),
    ]);
    const endIndex = events.findIndex((e) => e.type === 'ended');
    expect(events.slice(endIndex + 1).filter((e) => e.node === agent)).toEqual([]);
  });

  it('puts the session back to work when the notification is delivered to it', () => {
    expect(events[events.length - 1]).toMatchObject({
      type: 'status',
      node: SID,
      payload: { state: 'working' },
    });
  });
});

describe('blocking polls and stops', () => {
  it('closes the wait when a poll returns while the agent still runs, and a TaskStop cancels it', () => {
    const b = new TranscriptBuilder(SID);
    const agent = `${SID}/bg2`;
    const { events } = run([
      b.prompt('go'),
      b.toolUse('T1', 'Task', {
        description: 'Watch logs',
        prompt: 'Watch the logs',
        subagent_type: 'general-purpose',
        run_in_background: true,
      }),
      b.toolResult('T1', 'launched', {
        toolUseResult: { isAsync: true, status: 'async_launched', agentId: 'bg2' },
      }),
      b.toolUse('O1', 'TaskOutput', { task_id: 'bg2', block: true, timeout: 1000 }),
      b.toolResult('O1', '<status>running</status>'),
      b.toolUse('S1', 'TaskStop', { task_id: 'bg2' }),
      b.toolResult('S1', 'stopped'),
    ]);
    expect(ofType(events, 'wait.ended')).toEqual([
      expect.objectContaining({ node: SID, payload: { on: [agent] } }),
    ]);
    expect(ofType(events, 'ended', agent)).toEqual([
      expect.objectContaining({ payload: expect.objectContaining({ state: 'canceled' }) }),
    ]);
  });

  it('turns a foreground agent into a background one (no longer blocking) when its launch says async', () => {
    const b = new TranscriptBuilder(SID);
    const { events } = run([
      b.prompt('go'),
      b.toolUse('T1', 'Task', {
        description: 'Long job',
        prompt: 'Do the long job',
        subagent_type: 'general-purpose',
      }),
      b.agentProgress('T1', 'fg1'),
      b.toolResult('T1', 'launched', {
        toolUseResult: { isAsync: true, status: 'async_launched', agentId: 'fg1' },
      }),
    ]);
    expect(ofType(events, 'wait.ended')).toEqual([
      expect.objectContaining({ node: SID, payload: { on: [`${SID}/fg1`] } }),
    ]);
    expect(nodeOf(replay(events), SID).blocked).toBeNull();
  });
});

describe('attention', () => {
  it('raises a permission attention for a rejected tool use and clears it at the next prompt', () => {
    const b = new TranscriptBuilder(SID);
    const { events } = run([
      b.prompt('clean up'),
      b.toolUse('B1', 'Bash', { command: 'rm -rf build', description: 'Remove the build folder' }),
      b.toolResult(
        'B1',
        "The user doesn't want to proceed with this tool use. The tool use was rejected.",
        { isError: true, toolUseResult: 'User rejected tool use' },
      ),
      b.prompt('[Request interrupted by user for tool use]'),
      b.prompt('keep the build folder'),
    ]);
    const tail = events
      .slice(-4)
      .map((e) => `${e.type}${e.type === 'status' ? `:${e.payload.state}` : ''}`);
    expect(tail).toEqual([
      'attention.raised',
      'status:idle',
      'attention.cleared',
      'status:working',
    ]);
    expect(ofType(events, 'attention.raised')).toEqual([
      expect.objectContaining({
        node: SID,
        payload: {
          reason: 'permission',
          message: 'The user rejected Bash Remove the build folder.',
        },
      }),
    ]);
    const graph = replay(
      events.slice(
        0,
        events.findIndex((e) => e.type === 'attention.cleared'),
      ),
    );
    expect(nodeOf(graph, SID)).toMatchObject({
      state: 'idle',
      attention: { reason: 'permission' },
    });
    expect(nodeOf(replay(events), SID)).toMatchObject({ state: 'working', attention: null });
  });

  it('raises an error attention for API errors and clears it when output resumes', () => {
    const b = new TranscriptBuilder(SID);
    const { events } = run([
      b.prompt('hello'),
      b.text('API Error: 529 Overloaded', undefined, { isApiErrorMessage: true }),
      b.system('api_error', { error: { message: 'Request timed out' } }),
      b.text('Back again'),
    ]);
    expect(ofType(events, 'attention.raised').map((e) => e.payload)).toEqual([
      { reason: 'error', message: 'API Error: 529 Overloaded' },
      { reason: 'error', message: 'Request timed out' },
    ]);
    expect(nodeOf(replay(events), SID).attention).toBeNull();
  });
});

describe('task lists', () => {
  it('follows TaskCreate and TaskUpdate with the ids Claude Code gives', () => {
    const b = new TranscriptBuilder(SID);
    const { events } = run([
      b.prompt('plan'),
      b.toolUse('C1', 'TaskCreate', {
        subject: 'Write the parser',
        description: '…',
        activeForm: 'Writing the parser',
      }),
      b.toolResult('C1', 'Task #1 created successfully: Write the parser', {
        toolUseResult: { task: { id: '1', subject: 'Write the parser' } },
      }),
      b.toolUse('C2', 'TaskCreate', { subject: 'Test it', description: '…' }),
      b.toolResult('C2', 'Task #2 created successfully: Test it'),
      b.toolUse('C3', 'TaskCreate', { subject: 'Drop me', description: '…' }),
      b.toolResult('C3', 'created'),
      b.toolUse('U1', 'TaskUpdate', { taskId: '1', status: 'completed' }),
      b.toolUse('U2', 'TaskUpdate', { taskId: '2', status: 'in_progress' }),
      b.toolUse('U3', 'TaskUpdate', { taskId: '3', status: 'deleted' }),
      b.toolUse('U4', 'TaskUpdate', { taskId: '99', status: 'completed' }),
    ]);
    const updates = ofType(events, 'tasks.updated');
    expect(updates).toHaveLength(6);
    expect(updates[updates.length - 1]!.payload.tasks).toEqual([
      {
        id: '1',
        content: 'Write the parser',
        status: 'completed',
        active_form: 'Writing the parser',
      },
      { id: '2', content: 'Test it', status: 'in_progress' },
    ]);
    expect(nodeOf(replay(events), SID).taskCounts).toEqual({
      total: 2,
      pending: 0,
      in_progress: 1,
      completed: 1,
      open: 1,
    });
  });
});

describe('linking sub-agent files', () => {
  it('holds an agent file read before its spawn line and replays it once the agent exists', () => {
    const b = new TranscriptBuilder(SID);
    const file = b.agentFile('a1');
    const spawn = b.toolUse('T1', 'Task', {
      description: 'Look around',
      prompt: 'Look around the repo',
      subagent_type: 'Explore',
    });
    const link = b.agentProgress('T1', 'a1');
    const root = b.agentRoot(file, 'Look around the repo', 'a1');
    b.tick(20_000);
    const work = b.toolUse('R1', 'Read', { file_path: '/work/project/src/app.ts' }, file);
    const { events } = run([root, work], [spawn, link]);
    const agentEvents = events.filter((e) => e.node === `${SID}/a1`);
    expect(agentEvents.map((e) => e.type)).toEqual(['agent.spawned', 'activity']);
    expect(agentEvents[1]).toMatchObject({
      payload: { summary: 'Read …/src/app.ts' },
      key: `${SID}/agent-a1:${JSON.parse(work.text).uuid}:0`,
    });
  });

  it('ties a 2.0.x agent file by its prompt at once (no progress lines then)', () => {
    const b = new TranscriptBuilder(SID, '2.0.14');
    const file = b.agentFile('old1');
    const { events } = run([
      b.prompt('go'),
      b.toolUse('T1', 'Task', {
        description: 'Old agent',
        prompt: 'Do the old thing',
        subagent_type: 'general-purpose',
      }),
      b.agentRoot(file, 'Do the old thing', 'old1'),
      b.text('working on it', file),
    ]);
    expect(ofType(events, 'agent.spawned')).toEqual([
      expect.objectContaining({
        node: `${SID}/old1`,
        payload: expect.objectContaining({ link_method: 'inferred', spawn_call_id: 'T1' }),
      }),
    ]);
  });

  it('ignores agent files no spawn call explains (warm-up runs) and says so at the end', () => {
    const b = new TranscriptBuilder(SID);
    const file = b.agentFile('warm');
    const { events, problems } = run([
      b.prompt('hi'),
      b.agentRoot(file, 'Warmup', 'warm'),
      b.text('ready', file),
    ]);
    expect(events.some((e) => e.node.includes('warm'))).toBe(false);
    expect(problems).toEqual([
      `${file.path}:1: sub-agent file not tied to any spawn call; its 2 line(s) are held, not sent`,
    ]);
  });

  it('creates no agent for a refused spawn call and flags the session', () => {
    const b = new TranscriptBuilder(SID);
    const { events } = run([
      b.prompt('go'),
      b.toolUse('T1', 'Task', {
        description: 'Risky',
        prompt: 'Do risky things',
        subagent_type: 'general-purpose',
      }),
      b.toolResult('T1', "The user doesn't want to proceed with this tool use.", {
        isError: true,
        toolUseResult: 'User rejected tool use',
      }),
    ]);
    expect(ofType(events, 'agent.spawned')).toEqual([]);
    expect(ofType(events, 'attention.raised')).toEqual([
      expect.objectContaining({
        node: SID,
        payload: { reason: 'permission', message: 'The user rejected Task Risky.' },
      }),
    ]);
  });

  it('cancels a foreground agent whose call was interrupted', () => {
    const b = new TranscriptBuilder(SID);
    const { events } = run([
      b.prompt('go'),
      b.toolUse('T1', 'Task', {
        description: 'Slow',
        prompt: 'Be slow',
        subagent_type: 'general-purpose',
      }),
      b.agentProgress('T1', 's1'),
      b.toolResult('T1', '[Request interrupted by user for tool use]', { isError: true }),
    ]);
    expect(ofType(events, 'ended')).toEqual([
      expect.objectContaining({
        node: `${SID}/s1`,
        payload: expect.objectContaining({ state: 'canceled' }),
      }),
    ]);
  });
});
