import { Harness } from '../__tests__/harness';
import { WatchEvent } from '../watch-event';
import { applyEvent } from './apply-event';

const started = () => {
  const h = new Harness();
  h.apply('session.started', 'S', {});
  return h;
};

describe('status', () => {
  it('sets the state, and summary with headline when a summary is given', () => {
    const h = started();
    const applied = h.after(5, 'status', 'S', {
      state: 'input_required',
      summary: '\n  Waiting for approval  \nof the plan',
    });
    expect(h.pub('S')).toMatchObject({
      state: 'input_required',
      summary: '\n  Waiting for approval  \nof the plan',
      headline: 'Waiting for approval',
    });
    expect(applied.event.changes[0]!.fields).toEqual({
      state: { from: 'working', to: 'input_required' },
      summary: { from: null, to: '\n  Waiting for approval  \nof the plan' },
      headline: { from: null, to: 'Waiting for approval' },
      last_event: { from: 1_000, to: 1_005 },
    });
    expect(applied.event.counts.by_state).toMatchObject({ working: 0, input_required: 1 });

    h.after(5, 'status', 'S', { state: 'idle' });
    expect(h.pub('S')).toMatchObject({
      state: 'idle',
      summary: '\n  Waiting for approval  \nof the plan',
      ended: null,
    });
  });

  it('accepts an end state without ending the node', () => {
    const h = started();
    h.apply('status', 'S', { state: 'completed' });
    expect(h.pub('S')).toMatchObject({ state: 'completed', ended: null });
  });
});

describe('activity', () => {
  it('only refreshes last_event, and the headline (not the summary) when a summary is given', () => {
    const h = started();
    h.apply('status', 'S', { state: 'working', summary: 'Old' });
    const applied = h.after(9, 'activity', 'S', { summary: 'Reading files' });
    expect(h.pub('S')).toMatchObject({
      summary: 'Old',
      headline: 'Reading files',
      last_event: 1_009,
    });
    expect(Object.keys(applied.event.changes[0]!.fields).sort()).toEqual([
      'headline',
      'last_event',
    ]);
    h.after(1, 'activity', 'S', {});
    expect(h.pub('S')).toMatchObject({ headline: 'Reading files', last_event: 1_010 });
  });

  it('is still accepted after the node ended', () => {
    const h = started();
    h.after(1, 'ended', 'S', { state: 'completed' });
    h.after(1, 'activity', 'S', {});
    expect(h.pub('S')).toMatchObject({ last_event: 1_002, ended: 1_001 });
  });
});

describe('title and attention', () => {
  it('sets the title', () => {
    const h = started();
    h.apply('title', 'S', { title: 'New name' });
    expect(h.pub('S').title).toBe('New name');
  });

  it('raises attention with its time and clears it', () => {
    const h = started();
    h.after(3, 'attention.raised', 'S', { reason: 'permission', message: 'Run rm?' });
    expect(h.pub('S').attention).toEqual({
      reason: 'permission',
      message: 'Run rm?',
      since: 1_003,
    });
    h.after(3, 'attention.raised', 'S', { reason: 'question' });
    expect(h.pub('S').attention).toEqual({ reason: 'question', message: null, since: 1_006 });
    h.after(3, 'attention.cleared', 'S', {});
    expect(h.pub('S').attention).toBeNull();
  });
});

describe('event bookkeeping', () => {
  it('raises a created earlier than the previous event to it (clock skew)', () => {
    const h = started();
    h.now = 2_000;
    h.apply('title', 'S', { title: 'a' });
    const applied = h.apply('title', 'S', { title: 'b' }, 1_500);
    expect(applied.event.created).toBe(2_000);
    expect(h.state.lastCreated).toBe(2_000);
    expect(h.pub('S').last_event).toBe(2_000);
  });

  it('stores the event with its seq, key, node and counts', () => {
    const h = started();
    const applied = h.after(1, 'title', 'S', { title: 'x' });
    expect(applied.event).toMatchObject({
      seq: 2,
      key: 'k2',
      type: 'title',
      created: 1_001,
      nodeNo: 1,
      payload: { title: 'x' },
      source: {
        provider: 'claude-code',
        provider_version: '2.0.14',
        adapter: 'claude-code-jsonl/1',
      },
    });
    expect(h.state.lastSeq).toBe(2);
  });

  it('lists no change and no version when nothing public changed', () => {
    const h = started();
    h.apply('title', 'S', { title: 'same' });
    const applied = h.apply('title', 'S', { title: 'same' });
    expect(applied.event.changes).toEqual([]);
    expect(applied.versions).toEqual([]);
  });

  it('refuses a seq that is not above the last one, changing nothing', () => {
    const h = started();
    const ev = h.event('title', 'S', { title: 'y' }) as WatchEvent;
    expect(() => applyEvent(h.state, ev, 1)).toThrow(RangeError);
    expect(h.pub('S').title).toBeNull();
    expect(h.state.lastSeq).toBe(1);
  });

  it('returns versions that later events do not change', () => {
    const h = started();
    h.apply('agent.spawned', 'S/a', { parent: 'S', agent_type: 'x', purpose: 'p' });
    const version = h.apply('tasks.updated', 'S/a', {
      tasks: [{ content: 'a', status: 'pending' }],
    }).versions[0]!;
    const frozen = JSON.stringify(version);
    version.taskCounts.open = 99;
    expect(h.rec('S/a').taskCounts.open).toBe(1);
    version.taskCounts.open = 1;
    h.apply('tasks.updated', 'S/a', { tasks: [] });
    h.apply('ended', 'S/a', { state: 'failed' });
    expect(JSON.stringify(version)).toBe(frozen);
  });
});
