import { LIMITS, payloadText } from '@graph-history/domain';
import { ofType, run } from './support/adapter-run';
import { nodeOf, replay } from './support/graph-replay';
import { TranscriptBuilder } from './support/transcript-builder';

const SID = 'sess-1';

/** A provider's records beyond ingest's limits are made to fit: watch never sends what is refused. */
describe('claude-code records beyond the limits of one event', () => {
  it('fits a huge todo list into one tasks.updated, keeping every task and its status', () => {
    const b = new TranscriptBuilder(SID);
    const todos = Array.from({ length: 1_000 }, (_, i) => ({
      content: `task ${i} ${'c'.repeat(5_000)}`,
      status: i % 3 === 0 ? 'completed' : i % 3 === 1 ? 'in_progress' : 'pending',
      activeForm: `doing ${i} ${'a'.repeat(5_000)}`,
    }));
    const { events, problems } = run([b.prompt('plan'), b.toolUse('W1', 'TodoWrite', { todos })]);
    expect(problems).toEqual([]);
    const [update] = ofType(events, 'tasks.updated');
    const tasks = update!.payload.tasks;
    expect(payloadText(update!.payload)).toBeLessThanOrEqual(LIMITS.payloadText);
    expect(tasks.map((t) => t.status)).toEqual(todos.map((t) => t.status));
    expect(tasks[7]!.content).toMatch(/^task 7 c+…$/);
    expect(nodeOf(replay(events), SID).taskCounts).toMatchObject({ total: 1_000, completed: 334 });
  });

  it('leaves a list that fits as it is', () => {
    const b = new TranscriptBuilder(SID);
    const todos = Array.from({ length: 40 }, (_, i) => ({
      content: `step ${i} ${'x'.repeat(1_900)}`,
      status: 'pending',
      activeForm: `Doing ${i}`,
    }));
    const { events } = run([b.prompt('plan'), b.toolUse('W1', 'TodoWrite', { todos })]);
    const [update] = ofType(events, 'tasks.updated');
    expect(update!.payload.tasks.map((t) => t.content)).toEqual(todos.map((t) => t.content));
  });

  it('places agents nested deeper than the tree allows under the deepest ancestor allowed', () => {
    const b = new TranscriptBuilder(SID);
    const lines = [b.prompt('go deep')];
    const levels = LIMITS.treeDepth + 5;
    for (let i = 1; i <= levels; i++) {
      const from = i === 1 ? b.main : b.agentFile(`a${i - 1}`);
      lines.push(
        b.toolUse(
          `T${i}`,
          'Task',
          { description: `level ${i}`, prompt: `go to ${i}`, run_in_background: true },
          from,
        ),
        b.toolResult(
          `T${i}`,
          'Async agent launched',
          { toolUseResult: { isAsync: true, status: 'async_launched', agentId: `a${i}` } },
          from,
        ),
        b.agentRoot(b.agentFile(`a${i}`), `go to ${i}`, `a${i}`),
      );
    }
    const { events, problems } = run(lines);
    expect(problems).toEqual([]);
    const state = replay(events);
    const depths = Array.from(
      { length: levels },
      (_, i) => nodeOf(state, `${SID}/a${i + 1}`).depth,
    );
    expect(depths.slice(0, LIMITS.treeDepth)).toEqual(
      Array.from({ length: LIMITS.treeDepth }, (_, i) => i + 1),
    );
    expect(depths.slice(LIMITS.treeDepth)).toEqual(Array(5).fill(LIMITS.treeDepth));
    const deeper = ofType(events, 'agent.spawned', `${SID}/a${LIMITS.treeDepth + 1}`)[0]!;
    expect(deeper.payload).toMatchObject({
      parent: `${SID}/a${LIMITS.treeDepth - 1}`,
      link_method: 'inferred',
    });
  });

  it('cuts a working directory longer than any text it sends', () => {
    const b = new TranscriptBuilder(SID);
    const { events } = run([
      b.line({ type: 'user', message: { role: 'user', content: 'hi' } }, b.main, {
        cwd: `/${'d'.repeat(30_000)}`,
      }),
    ]);
    const [started] = ofType(events, 'session.started');
    expect(started!.payload.cwd!.length).toBeLessThanOrEqual(2_000);
  });
});
