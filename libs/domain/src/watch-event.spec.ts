import { SOURCE } from './__tests__/harness';
import { parseWatchEvent } from './watch-event';

const raw = (over: Record<string, unknown>) => ({
  key: 'k',
  type: 'status',
  created: 1,
  node: 'S',
  source: SOURCE,
  payload: { state: 'idle' },
  ...over,
});

describe('parseWatchEvent', () => {
  it('accepts a well-formed event', () => {
    expect(parseWatchEvent(raw({}))).toMatchObject({
      ok: true,
      event: { type: 'status', payload: { state: 'idle' } },
    });
  });

  it('refuses type names inherited from Object.prototype as unknown types', () => {
    for (const type of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(parseWatchEvent(raw({ type, payload: {} }))).toMatchObject({
        ok: false,
        rejection: { param: 'type' },
      });
    }
  });

  it('refuses strings Postgres cannot store, naming the field', () => {
    expect(parseWatchEvent(raw({ payload: { state: 'idle', summary: 'a\u0000b' } }))).toEqual({
      ok: false,
      rejection: {
        param: 'payload.summary',
        message: 'Invalid payload.summary: remove NUL characters and unpaired surrogates.',
      },
    });
    expect(parseWatchEvent(raw({ node: 'S\ud800' }))).toMatchObject({
      ok: false,
      rejection: { param: 'node' },
    });
    expect(parseWatchEvent(raw({ payload: { state: 'idle', summary: 'ok 😀' } })).ok).toBe(true);
  });

  it('names the index of a bad array item', () => {
    const bad = raw({
      type: 'tasks.updated',
      payload: {
        tasks: [
          { content: 'a', status: 'pending' },
          { content: 'b', status: 'done' },
        ],
      },
    });
    expect(parseWatchEvent(bad)).toMatchObject({
      ok: false,
      rejection: { param: 'payload.tasks[1].status' },
    });
  });

  it('takes a task owner and blocked_by ids, and names a bad blocker by its index', () => {
    const task = { content: 'a', status: 'pending', owner: 'tester', blocked_by: ['1', '2'] };
    expect(
      parseWatchEvent(raw({ type: 'tasks.updated', payload: { tasks: [task] } })),
    ).toMatchObject({
      ok: true,
      event: { payload: { tasks: [task] } },
    });
    const bad = raw({
      type: 'tasks.updated',
      payload: { tasks: [{ ...task, blocked_by: ['1', 2] }] },
    });
    expect(parseWatchEvent(bad)).toMatchObject({
      ok: false,
      rejection: { param: 'payload.tasks[0].blocked_by[1]' },
    });
    const noOwner = raw({ type: 'tasks.updated', payload: { tasks: [{ ...task, owner: 7 }] } });
    expect(parseWatchEvent(noOwner)).toMatchObject({
      ok: false,
      rejection: { param: 'payload.tasks[0].owner' },
    });
  });
});
