import { Harness } from '../__tests__/harness';

describe('tasks.updated', () => {
  it('replaces the list, derives ids and sets task_counts', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    const applied = h.after(10, 'tasks.updated', 'S', {
      tasks: [
        { content: 'Read', status: 'completed' },
        { id: 'fix', content: 'Fix', status: 'in_progress', active_form: 'Fixing' },
        { content: 'Test', status: 'pending' },
      ],
    });
    expect(applied.taskSnapshot).toEqual({
      nodeNo: 1,
      seq: 2,
      tasks: [
        {
          id: 'task_1',
          content: 'Read',
          status: 'completed',
          active_form: null,
          created: 1_010,
          updated: 1_010,
        },
        {
          id: 'fix',
          content: 'Fix',
          status: 'in_progress',
          active_form: 'Fixing',
          created: 1_010,
          updated: 1_010,
        },
        {
          id: 'task_3',
          content: 'Test',
          status: 'pending',
          active_form: null,
          created: 1_010,
          updated: 1_010,
        },
      ],
    });
    expect(h.pub('S').task_counts).toEqual({
      total: 3,
      pending: 1,
      in_progress: 1,
      completed: 1,
      open: 2,
    });
  });

  it('keeps created of an item with the same id, and updated while it is unchanged', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    h.after(10, 'tasks.updated', 'S', {
      tasks: [
        { content: 'A', status: 'pending' },
        { id: 'b', content: 'B', status: 'pending' },
      ],
    });
    const applied = h.after(10, 'tasks.updated', 'S', {
      tasks: [
        { content: 'A', status: 'pending' },
        { content: 'New', status: 'pending' },
        { id: 'b', content: 'B', status: 'completed' },
      ],
    });
    expect(applied.taskSnapshot!.tasks).toEqual([
      {
        id: 'task_1',
        content: 'A',
        status: 'pending',
        active_form: null,
        created: 1_010,
        updated: 1_010,
      },
      {
        id: 'task_2',
        content: 'New',
        status: 'pending',
        active_form: null,
        created: 1_020,
        updated: 1_020,
      },
      {
        id: 'b',
        content: 'B',
        status: 'completed',
        active_form: null,
        created: 1_010,
        updated: 1_020,
      },
    ]);
  });

  it('never gives two items the same id when a given id looks generated', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    const applied = h.apply('tasks.updated', 'S', {
      tasks: [
        { content: 'A', status: 'pending' },
        { id: 'task_1', content: 'B', status: 'pending' },
      ],
    });
    expect(applied.taskSnapshot!.tasks.map((t) => t.id)).toEqual(['task_1_2', 'task_1']);
  });

  it('moves open_tasks of every node that waits on the node, directly or not', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    h.apply('agent.spawned', 'S/a', { parent: 'S', agent_type: 'x', purpose: 'p' });
    h.apply('agent.spawned', 'S/b', { parent: 'S/a', agent_type: 'x', purpose: 'p' });
    const applied = h.apply('tasks.updated', 'S/b', {
      tasks: [
        { content: 'x', status: 'pending' },
        { content: 'y', status: 'in_progress' },
      ],
    });
    expect(h.pub('S').blocked).toMatchObject({ node_count: 2, open_tasks: 2 });
    expect(h.pub('S/a').blocked).toMatchObject({ node_count: 1, open_tasks: 2 });
    expect(applied.event.changes.map((c) => c.node_id)).toEqual([
      h.id('S/b'),
      h.id('S'),
      h.id('S/a'),
    ]);
    h.apply('tasks.updated', 'S/b', { tasks: [{ content: 'x', status: 'completed' }] });
    expect(h.pub('S').blocked).toMatchObject({ open_tasks: 0 });
  });

  it('keeps owner and blocked_by together, only on tasks that gave either; a change moves updated', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    const first = h.after(10, 'tasks.updated', 'S', {
      tasks: [
        { id: '1', content: 'Parse', status: 'pending', owner: 'parser' },
        { id: '2', content: 'Test', status: 'pending', blocked_by: ['1'] },
        { id: '3', content: 'Ship', status: 'pending' },
      ],
    });
    expect(
      first.taskSnapshot!.tasks.map(({ id, owner, blocked_by }) => [id, owner, blocked_by]),
    ).toEqual([
      ['1', 'parser', []],
      ['2', null, ['1']],
      ['3', undefined, undefined],
    ]);
    expect(first.taskSnapshot!.tasks[2]).not.toHaveProperty('owner');
    const second = h.after(10, 'tasks.updated', 'S', {
      tasks: [
        { id: '1', content: 'Parse', status: 'pending', owner: 'parser' },
        { id: '2', content: 'Test', status: 'pending', blocked_by: ['1'], owner: 'tester' },
        { id: '3', content: 'Ship', status: 'pending' },
      ],
    });
    expect(second.taskSnapshot!.tasks.map((t) => t.updated)).toEqual([1_010, 1_020, 1_010]);
  });
});
