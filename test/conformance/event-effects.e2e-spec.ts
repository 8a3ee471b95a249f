import { type IssuedKey, Services } from './support/services';
import { WatchScript } from './support/watch-events';

const T = 1_763_770_000_000;
const at = (i: number) => T + i * 1_000;
type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * ingest.md "Types and payloads": the effect of each WatchEvent type, read back through the API
 * as of the event that caused it.
 */
describe('conformance: the effect of each event type', () => {
  let s: Services;
  let acme: IssuedKey;
  /** Event ids, in sending order. */
  let e: string[];
  const id: Record<string, string> = {};

  beforeAll(async () => {
    s = await Services.start();
    acme = await s.createKey('acme');
    const script = new WatchScript(T, 1_000)
      .session('P', { title: 'parent', cwd: '/p' }) // 0
      .session('C', { parent: 'P' }) // 1: a session started by P
      .agent('C/f', 'C', { background: false, link_method: 'inferred' }) // 2: foreground: C waits on C/f
      .agent('C/r', 'C/f', { requested_by: 'C', background: true }) // 3
      .status('C/f', 'input_required', 'Need input\nplease') // 4
      .status('C/f', 'working') // 5: no summary
      .activity('C/f', 'Busy line') // 6
      .event('title', 'C', { title: 'child' }) // 7
      .event('tasks.updated', 'C/f', {
        tasks: [
          { id: 'x', content: 'X', status: 'pending' },
          { id: 'y', content: 'Y', status: 'completed' },
        ],
      }) // 8
      .event('tasks.updated', 'C/f', { tasks: [{ id: 'y', content: 'Y', status: 'completed' }] }) // 9
      .event('wait.started', 'P', { on: ['C', 'C/r'], reason: 'join' }) // 10
      .event('wait.ended', 'P', { on: ['C'] }) // 11
      .event('wait.ended', 'P', {}) // 12
      .event('attention.raised', 'C/f', { reason: 'error', message: 'Crashed' }) // 13
      .event('attention.cleared', 'C/f', {}) // 14
      .event('message.sent', 'C/r', { to: 'P', text: 'done soon', message_id: 'm-1' }) // 15
      .event('wait.started', 'C/f', { on: ['C/r'] }) // 16
      .ended('C/f', 'failed') // 17: closes its own wait and C's wait on it
      .ended('C/r', 'completed'); // 18
    await s.load(acme, 'fx', script.events);
    e = (await s.read('/graphs/gph_fx/events?order=asc', acme.auth)).data.map((x: Node) => x.id);
    for (const n of (await s.read('/graphs/gph_fx/nodes', acme.auth)).data)
      id[n.provider_ref] = n.id;
  }, 90_000);
  afterAll(() => s?.stop());

  const node = (ref: string, event: number, expand = ''): Promise<Node> =>
    s.read(`/graphs/gph_fx/nodes/${id[ref]}?as_of=${e[event]}${expand}`, acme.auth);

  it('session.started creates a working session; with parent, under that node', async () => {
    expect(await node('P', 0)).toMatchObject({
      kind: 'session',
      state: 'working',
      title: 'parent',
      cwd: '/p',
      depth: 0,
      parent_id: null,
    });
    expect(await node('C', 1)).toMatchObject({
      kind: 'session',
      state: 'working',
      parent_id: id.P,
      root_id: id.P,
      session_id: id.C,
      requested_by_id: null,
      depth: 1,
      blocked: null,
    });
    expect(await node('P', 1)).toMatchObject({
      child_count: 1,
      descendant_count: 1,
      blocked: null,
    });
  });

  it('agent.spawned creates a working agent, updates ancestors, and a foreground spawn blocks its parent', async () => {
    expect(await node('C/f', 2)).toMatchObject({
      kind: 'agent',
      state: 'working',
      parent_id: id.C,
      session_id: id.C,
      requested_by_id: id.C,
      background: false,
      link_method: 'inferred',
    });
    expect((await node('C', 2)).blocked).toMatchObject({ on_ids: [id['C/f']], starting: at(2) });
    expect(await node('P', 3)).toMatchObject({
      child_count: 1,
      descendant_count: 3,
      background_agent_count: 1,
    });
    expect(await node('C/r', 3)).toMatchObject({
      parent_id: id['C/f'],
      requested_by_id: id.C,
      depth: 3,
      background: true,
    });
  });

  it('status sets state, and summary and headline only when given', async () => {
    expect(await node('C/f', 4)).toMatchObject({
      state: 'input_required',
      summary: 'Need input\nplease',
      headline: 'Need input',
    });
    expect(await node('C/f', 5)).toMatchObject({
      state: 'working',
      summary: 'Need input\nplease',
      headline: 'Need input',
    });
  });

  it('activity marks the node alive and sets only its headline', async () => {
    expect(await node('C/f', 6)).toMatchObject({
      state: 'working',
      summary: 'Need input\nplease',
      headline: 'Busy line',
      last_event: at(6),
    });
  });

  it('title sets the title', async () => {
    expect((await node('C', 6)).title).toBeNull();
    expect((await node('C', 7)).title).toBe('child');
  });

  it('tasks.updated replaces the whole list and sets task_counts', async () => {
    const first = await node('C/f', 8, '&expand[]=tasks');
    expect(first.task_counts).toEqual({
      total: 2,
      pending: 1,
      in_progress: 0,
      completed: 1,
      open: 1,
    });
    const second = await node('C/f', 9, '&expand[]=tasks');
    expect(second.task_counts).toEqual({
      total: 1,
      pending: 0,
      in_progress: 0,
      completed: 1,
      open: 0,
    });
    expect(second.tasks.data.map((t: Node) => t.id)).toEqual(['y']);
  });

  it('wait.started opens waits and blocks; wait.ended closes the named ones, or all', async () => {
    expect((await node('P', 10)).blocked).toMatchObject({
      on_ids: [id.C, id['C/r']],
      starting: at(10),
    });
    expect((await node('P', 11)).blocked).toMatchObject({ on_ids: [id['C/r']], starting: at(10) });
    const closed = await node('P', 12, '&expand[]=waits');
    expect(closed.blocked).toBeNull();
    expect(closed.waits.data.map((w: Node) => [w.on_id, w.reason, w.started, w.ended])).toEqual([
      [id.C, 'join', at(10), at(11)],
      [id['C/r'], 'join', at(10), at(12)],
    ]);
  });

  it('attention.raised sets attention; attention.cleared clears it', async () => {
    expect((await node('C/f', 13)).attention).toEqual({
      reason: 'error',
      message: 'Crashed',
      since: at(13),
    });
    expect((await node('C/f', 14)).attention).toBeNull();
  });

  it('message.sent records the message on both nodes', async () => {
    const sender = await node('C/r', 15, '&expand[]=messages');
    const receiver = await node('P', 15, '&expand[]=messages');
    const message = {
      object: 'message',
      id: 'm-1',
      from_id: id['C/r'],
      to_id: id.P,
      created: at(15),
      text: 'done soon',
    };
    expect(sender.messages.data).toEqual([{ ...message, direction: 'sent' }]);
    expect(receiver.messages.data).toEqual([{ ...message, direction: 'received' }]);
  });

  it('ended sets ended and state, closes its own waits and unblocks the nodes waiting on it', async () => {
    expect((await node('C/f', 16)).blocked).toMatchObject({ on_ids: [id['C/r']] });
    const ended = await node('C/f', 17, '&expand[]=waits');
    expect(ended).toMatchObject({ state: 'failed', ended: at(17), blocked: null });
    expect(ended.waits.data.every((w: Node) => w.ended !== null)).toBe(true);
    expect((await node('C', 16)).blocked).not.toBeNull();
    expect((await node('C', 17)).blocked).toBeNull();
    expect((await node('P', 18)).background_agent_count).toBe(0);
  });
});
