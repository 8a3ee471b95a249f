import { EndpointFixture, endpointFixture } from './support/endpoint-fixture';
import { T0, validRun, watchEvent } from './support/watch-events';

/** ingest.md's batch rules over HTTP: all-or-nothing validation, idempotency keys, order. */
describe('ingest batches', () => {
  let f: EndpointFixture;
  const post = (...args: Parameters<EndpointFixture['post']>) => f.post(...args);
  const graphRow = (graphKey: string) => f.graphRow(graphKey);
  const inboxOf = (graphKey: string) => f.inboxOf(graphKey);
  let t: EndpointFixture['t'];

  beforeAll(async () => {
    f = await endpointFixture();
    t = f.t;
  });
  afterAll(() => f.close());

  describe('validation: all or nothing, param of the first bad event', () => {
    const session = (key: string, ref: string) => watchEvent(key, 'session.started', ref);

    it.each([
      ['an unknown type', watchEvent('x', 'nope', 'v-s'), 'events[2].type'],
      [
        'an unknown state',
        watchEvent('x', 'status', 'v-s', { state: 'sleeping' }),
        'events[2].payload.state',
      ],
      [
        'a payload field of the wrong type',
        watchEvent('x', 'title', 'v-s', { title: 42 }),
        'events[2].payload.title',
      ],
      ['an unknown node', watchEvent('x', 'status', 'nobody', { state: 'idle' }), 'events[2].node'],
      ['a create of an existing ref', session('x', 'v-s'), 'events[2].node'],
      [
        'a spawn under an unknown parent',
        watchEvent('x', 'agent.spawned', 'v-s/z', {
          parent: 'ghost',
          agent_type: 't',
          purpose: 'p',
        }),
        'events[2].payload.parent',
      ],
      [
        'an event on an ended node',
        watchEvent('x', 'title', 'v-s/a', { title: 'late' }),
        'events[2].node',
      ],
      [
        'a text with a NUL character',
        watchEvent('x', 'title', 'v-s', { title: 'a\u0000b' }),
        'events[2].payload.title',
      ],
      ['an event that is not an object', 'hello', 'events[2]'],
      [
        'an event without key',
        { ...watchEvent('x', 'activity', 'v-s'), key: undefined },
        'events[2].key',
      ],
    ])('refuses %s', async (_, bad, param) => {
      const graphKey = `val-${param.replace(/[^a-z]/g, '')}-${Math.random().toString(36).slice(2, 8)}`;
      const events = [
        session(`${graphKey}-0`, 'v-s'),
        watchEvent(`${graphKey}-1`, 'agent.spawned', 'v-s/a', {
          parent: 'v-s',
          agent_type: 't',
          purpose: 'p',
        }),
        bad,
        watchEvent(`${graphKey}-3`, 'status', 'unknown-too', { state: 'idle' }),
      ];
      // the spawned agent ends first when the case needs an ended node
      if (
        param === 'events[2].node' &&
        (bad as { payload?: { title?: string } }).payload?.title === 'late'
      ) {
        events.splice(2, 0, watchEvent(`${graphKey}-e`, 'ended', 'v-s/a', { state: 'completed' }));
        const res = await post(graphKey, { events });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({
          code: 'parameter_invalid',
          param: 'events[3].node',
        });
        return;
      }
      const res = await post(graphKey, { events });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param,
      });
      expect(typeof res.json().error.message).toBe('string');
      expect(await graphRow(graphKey)).toBeUndefined();
    });

    it('stores nothing of a refused batch on an existing graph, and accepts the corrected batch', async () => {
      expect((await post('atomic', { events: [session('at-0', 'at-s')] })).statusCode).toBe(202);
      const before = await graphRow('atomic');
      const batch = [
        watchEvent('at-1', 'title', 'at-s', { title: 'ok' }),
        watchEvent('at-2', 'agent.spawned', 'at-s/a', {
          parent: 'at-s',
          agent_type: 't',
          purpose: 'p',
        }),
        watchEvent('at-3', 'status', 'at-s/a', { state: 'bogus' }),
      ];
      const res = await post('atomic', { events: batch });
      expect(res.json().error.param).toBe('events[2].payload.state');
      expect(await graphRow('atomic')).toEqual(before);
      expect(await inboxOf('atomic')).toHaveLength(1);
      const keys = await t.db
        .selectFrom('event_keys')
        .select('key')
        .where('graph_id', '=', before!.graph_id)
        .execute();
      expect(keys.map((k) => k.key)).toEqual(['at-0']);
      const refs = await t.db
        .selectFrom('node_refs')
        .select('ref')
        .where('graph_id', '=', before!.graph_id)
        .execute();
      expect(refs.map((r) => r.ref)).toEqual(['at-s']);

      batch[2] = watchEvent('at-3', 'status', 'at-s/a', { state: 'idle' });
      expect((await post('atomic', { events: batch })).json()).toEqual({
        accepted: 3,
        duplicates: 0,
        last_key: 'at-3',
      });
    });

    it('validates against everything stored before, in order: refs created and ended by earlier batches', async () => {
      const g = 'across';
      expect(
        (
          await post(g, {
            events: [
              session('ac-0', 'ac-s'),
              watchEvent('ac-1', 'agent.spawned', 'ac-s/a', {
                parent: 'ac-s',
                agent_type: 't',
                purpose: 'p',
              }),
            ],
          })
        ).statusCode,
      ).toBe(202);
      expect(
        (await post(g, { events: [watchEvent('ac-2', 'ended', 'ac-s/a', { state: 'completed' })] }))
          .statusCode,
      ).toBe(202);
      const late = await post(g, {
        events: [
          watchEvent('ac-3', 'status', 'ac-s', { state: 'idle' }),
          watchEvent('ac-4', 'status', 'ac-s/a', { state: 'idle' }),
        ],
      });
      expect(late.statusCode).toBe(400);
      expect(late.json().error.param).toBe('events[1].node');
      const again = await post(g, {
        events: [
          watchEvent('ac-3', 'activity', 'ac-s/a', { summary: 'still here' }),
          session('ac-4', 'ac-s'),
        ],
      });
      expect(again.json().error.param).toBe('events[1].node');
      const ok = await post(g, {
        events: [
          watchEvent('ac-3', 'activity', 'ac-s/a'),
          watchEvent('ac-4', 'message.sent', 'ac-s', { to: 'ac-s/a', text: 'hi' }),
        ],
      });
      expect(ok.json()).toEqual({ accepted: 2, duplicates: 0, last_key: 'ac-4' });
    });
  });

  describe('idempotency and order', () => {
    it('counts a resent batch as duplicates and stores nothing again', async () => {
      const events = validRun('dup', 20);
      expect((await post('dups', { events })).json()).toEqual({
        accepted: 20,
        duplicates: 0,
        last_key: 'dup-19',
      });
      expect((await post('dups', { events })).json()).toEqual({
        accepted: 0,
        duplicates: 20,
        last_key: 'dup-19',
      });
      expect(await inboxOf('dups')).toHaveLength(20);
    });

    it('skips duplicates before validation and counts a key repeated inside a batch once', async () => {
      const [s0] = validRun('dv', 1);
      expect((await post('dup-valid', { events: [s0] })).statusCode).toBe(202);
      const batch = [
        { key: 'dv-0', garbage: true }, // stored key: a no-op, even though it is not a valid event now
        watchEvent('dv-1', 'title', 'dv-s', { title: 'one' }),
        watchEvent('dv-1', 'title', 'dv-s', { title: 'repeated key' }),
        watchEvent('dv-2', 'title', 'dv-s', { title: 'two' }),
      ];
      expect((await post('dup-valid', { events: batch })).json()).toEqual({
        accepted: 2,
        duplicates: 2,
        last_key: 'dv-2',
      });
      const inbox = await inboxOf('dup-valid');
      expect(
        inbox.map((r) => [
          r.seq,
          (r.body as { key: string }).key,
          (r.body as { payload: { title?: string } }).payload.title,
        ]),
      ).toEqual([
        [1, 'dv-0', 'run dv'],
        [2, 'dv-1', 'one'],
        [3, 'dv-2', 'two'],
      ]);
    });

    it('gives events contiguous seqs in batch order, then order inside a batch', async () => {
      const events = validRun('ord', 250);
      for (let i = 0; i < events.length; i += 50) {
        expect((await post('ordered', { events: events.slice(i, i + 50) })).statusCode).toBe(202);
      }
      const inbox = await inboxOf('ordered');
      expect(inbox.map((r) => r.seq)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
      expect(inbox.map((r) => (r.body as { key: string }).key)).toEqual(events.map((e) => e.key));
      expect((await graphRow('ordered'))!.ingested_seq).toBe(250);
    });

    it('stores created as sent (the clock-skew raise happens when applying)', async () => {
      const res = await post('skew-store', {
        events: [
          watchEvent('sk-0', 'session.started', 'sk', {}, T0 + 5_000),
          watchEvent('sk-1', 'activity', 'sk', {}, T0),
        ],
      });
      expect(res.statusCode).toBe(202);
      expect(
        (await inboxOf('skew-store')).map((r) => (r.body as { created: number }).created),
      ).toEqual([T0 + 5_000, T0]);
    });

    it('serialises concurrent writers of one graph: every event stored once with contiguous seqs', async () => {
      const [session] = validRun('cc', 1);
      expect((await post('concurrent', { events: [session] })).statusCode).toBe(202);
      const batches = Array.from({ length: 8 }, (_, b) =>
        Array.from({ length: 25 }, (_, i) => watchEvent(`cc-${b}-${i}`, 'activity', 'cc-s')),
      );
      const results = await Promise.all(batches.map((events) => post('concurrent', { events })));
      expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(202));
      const inbox = await inboxOf('concurrent');
      expect(inbox.map((r) => r.seq)).toEqual(Array.from({ length: 201 }, (_, i) => i + 1));
    });
  });
});
