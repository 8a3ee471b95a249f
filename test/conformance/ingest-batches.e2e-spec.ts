import { expectError } from './support/contract';
import { type IssuedKey, Services } from './support/services';
import { WatchScript } from './support/watch-events';

/** ingest.md body limits and all-or-nothing validation, with `param` = events[i].field of the first bad event. */
describe('conformance: ingest batches (ingest.md)', () => {
  let s: Services;
  let acme: IssuedKey;

  beforeAll(async () => {
    s = await Services.start();
    acme = await s.createKey('acme');
  }, 90_000);
  afterAll(() => s?.stop());

  const eventCount = (graphKey: string) => s.eventCount(acme.auth, graphKey);

  describe('body limits', () => {
    it('accepts 1 and 1,000 events; refuses 0 and 1,001 with param events', async () => {
      const script = new WatchScript(1_763_770_000_000, 1).session('s');
      for (let i = 0; i < 1_000; i++) script.activity('s');
      const all = script.events;
      expect((await s.ingest('ing-count', all.slice(0, 1), acme.auth)).status).toBe(202);
      const thousand = all.slice(1, 1_001);
      const over = [...thousand, ...new WatchScript(1_763_780_000_000).activity('s').events];
      expectError(await s.ingest('ing-count', over, acme.auth), {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'events',
      });
      expectError(await s.ingest('ing-count', [], acme.auth), {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'events',
      });
      const res = await s.ingest('ing-count', thousand, acme.auth);
      expect(res.status).toBe(202);
      expect(res.body.accepted).toBe(1_000);
      await s.waitForEventCount(acme.auth, 'ing-count', 1_001);
    });

    it.each([
      ['a body without events', '{}'],
      ['events that is not an array', '{"events": {"key": "x"}}'],
    ])('refuses %s with 400 parameter_invalid param events', async (_what, body) => {
      expectError(await s.ingestRaw('ing-shape', body, acme.auth), {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'events',
      });
    });

    it('refuses a body that is not JSON with a 400 envelope', async () => {
      const res = await s.ingestRaw('ing-shape', '{"events": [', acme.auth);
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('invalid_request_error');
    });

    const MiB4 = 4 * 1024 * 1024;
    /** 1,000 activity events on `s`, padded to exactly `bytes` of JSON. */
    const sized = (bytes: number): string => {
      const events = new WatchScript(1_763_771_000_000, 1);
      for (let i = 0; i < 1_000; i++) events.activity('s', '');
      const base = JSON.stringify({ events: events.events }).length;
      const pad = bytes - base;
      const each = Math.floor(pad / 1_000);
      events.events.forEach(
        (e, i) => (e.payload.summary = 'x'.repeat(each + (i === 999 ? pad - each * 1_000 : 0))),
      );
      const body = JSON.stringify({ events: events.events });
      expect(Buffer.byteLength(body)).toBe(bytes);
      return body;
    };

    it('accepts a body of exactly 4 MiB', async () => {
      await s.load(acme, 'ing-size', new WatchScript(1_763_770_000_000).session('s').events);
      const exact = await s.ingestRaw('ing-size', sized(MiB4), acme.auth);
      expect(exact.status).toBe(202);
      expect(exact.body.accepted).toBe(1_000);
    });

    it('answers 4 MiB + 1 byte with a 413 envelope that a fetch client receives every time, storing nothing', async () => {
      await s.load(acme, 'ing-oversize', new WatchScript(1_763_770_000_000).session('s').events);
      const body = sized(MiB4 + 1);
      const outcomes: string[] = [];
      for (let attempt = 0; attempt < 10; attempt++) {
        try {
          const res = await fetch(`${s.ingestBaseUrl}/ingest/v1/graphs/ing-oversize/events`, {
            method: 'POST',
            headers: { authorization: acme.auth, 'content-type': 'application/json' },
            body,
          });
          const json = (await res.json()) as { error?: { type?: string; code?: string } };
          outcomes.push(`${res.status} ${json.error?.type}`);
        } catch (err) {
          const cause = (err as { cause?: { code?: string } }).cause;
          outcomes.push(`network error ${cause?.code ?? (err as Error).message}`);
        }
      }
      expect(outcomes).toEqual(Array(10).fill('413 invalid_request_error'));
      expect(await eventCount('ing-oversize')).toBe(1);
    });
  });

  describe('all or nothing: param events[i].field of the first bad event', () => {
    let n = 0;
    /** A graph holding: session `s`, agent `s/a`, and session `done` that has ended. */
    const seeded = async (): Promise<string> => {
      const key = `ing-bad-${++n}`;
      const script = new WatchScript().session('s').agent('s/a', 's').session('done').ended('done');
      await s.load(acme, key, script.events);
      return key;
    };
    const event = (type: string, node: string, payload: Record<string, unknown>) =>
      new WatchScript(1_763_790_000_000).event(type, node, payload).events[0]!;

    const cases: Array<[string, object, string]> = [
      ['an unknown type', event('bogus.type', 's', {}), 'events[1].type'],
      [
        'a payload field of the wrong type',
        event('title', 's', { title: 42 }),
        'events[1].payload.title',
      ],
      ['an unknown state', event('status', 's', { state: 'sleeping' }), 'events[1].payload.state'],
      [
        'an ended state that is not final',
        event('ended', 's', { state: 'working' }),
        'events[1].payload.state',
      ],
      [
        'an unknown node for a type that needs one',
        event('status', 'ghost', { state: 'idle' }),
        'events[1].node',
      ],
      [
        'a create for a ref that exists (session)',
        event('session.started', 's', {}),
        'events[1].node',
      ],
      [
        'a create for a ref that exists (agent)',
        event('agent.spawned', 's/a', { parent: 's', agent_type: 'x', purpose: 'y' }),
        'events[1].node',
      ],
      [
        'an agent.spawned whose parent is unknown',
        event('agent.spawned', 's/b', { parent: 'nobody', agent_type: 'x', purpose: 'y' }),
        'events[1].payload.parent',
      ],
      [
        'an event on an ended node',
        event('status', 'done', { state: 'working' }),
        'events[1].node',
      ],
      ['a missing key', { ...event('activity', 's', {}), key: undefined }, 'events[1].key'],
      [
        'a key of 201 characters',
        { ...event('activity', 's', {}), key: 'k'.repeat(201) },
        'events[1].key',
      ],
      ['an empty key', { ...event('activity', 's', {}), key: '' }, 'events[1].key'],
      [
        'a created that is not an integer',
        { ...event('activity', 's', {}), created: 'yesterday' },
        'events[1].created',
      ],
      ['a missing node', { ...event('activity', 's', {}), node: undefined }, 'events[1].node'],
      [
        'a payload that is not an object',
        { ...event('activity', 's', {}), payload: 'none' },
        'events[1].payload',
      ],
    ];

    it.each(cases)('refuses %s', async (_what, bad, param) => {
      const key = await seeded();
      const good = new WatchScript(1_763_780_000_000).activity('s').events[0]!;
      const laterBad = event('bogus.other', 's', {});
      const res = await s.ingest(key, [good, bad, laterBad], acme.auth);
      expectError(res, {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param,
      });
      expect(await eventCount(key)).toBe(4);
      const retry = await s.ingest(key, [good], acme.auth);
      expect(retry.body).toEqual({ accepted: 1, duplicates: 0, last_key: good.key });
    });

    it('refuses a source without its string fields, naming events[i].source…', async () => {
      const key = await seeded();
      const bad = { ...event('activity', 's', {}), source: { provider: 'x' } };
      const res = await s.ingest(key, [bad], acme.auth);
      const e = expectError(res, {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_invalid',
      });
      expect(e.param).toMatch(/^events\[0\]\.source/);
    });

    it.each([
      ['another session ref', 'T/x'],
      ['no "/" after the session ref', 'Sx'],
    ])(
      'refuses an agent ref with %s: agents extend their session ref with a / suffix',
      async (_what, ref) => {
        // read-api.md: "agent nodes extend their session's reference with a `/` suffix";
        // ingest.md: agent.spawned node is "the session's ref + / + suffix".
        const key = await seeded();
        const spawn = event('agent.spawned', ref, { parent: 's', agent_type: 'x', purpose: 'y' });
        const res = await s.ingest(key, [spawn], acme.auth);
        expectError(res, {
          status: 400,
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param: 'events[0].node',
        });
      },
    );

    it('accepts agents of agents whose refs extend the session ref', async () => {
      const key = await seeded();
      const ok = new WatchScript(1_763_780_000_000)
        .agent('s/a/b', 's/a')
        .agent('s/deep-1', 's/a/b');
      await s.load(acme, key, ok.events);
      const agents = (await s.read(`/graphs/gph_${key}/nodes?kind=agent`, acme.auth)).data;
      const session = (await s.read(`/graphs/gph_${key}/nodes?kind=session&limit=1`, acme.auth))
        .data[0];
      for (const a of agents.filter((n: { session_id: string }) => n.session_id === session.id)) {
        expect(a.provider_ref.startsWith(`${session.provider_ref}/`)).toBe(true);
      }
    });

    it('accepts activity on an ended node', async () => {
      const key = await seeded();
      const res = await s.ingest(
        key,
        new WatchScript(1_763_780_000_000).activity('done').events,
        acme.auth,
      );
      expect(res.status).toBe(202);
    });

    it('validates in order against the state the batch itself builds', async () => {
      const key = await seeded();
      const ok = new WatchScript(1_763_780_000_000)
        .session('n')
        .status('n', 'idle')
        .agent('n/x', 'n')
        .ended('n/x');
      expect((await s.ingest(key, ok.events, acme.auth)).status).toBe(202);
      const useBeforeCreate = new WatchScript(1_763_781_000_000).status('m', 'idle').session('m');
      expectError(await s.ingest(key, useBeforeCreate.events, acme.auth), {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'events[0].node',
      });
      const afterEnd = new WatchScript(1_763_782_000_000)
        .session('e')
        .ended('e')
        .status('e', 'working');
      expectError(await s.ingest(key, afterEnd.events, acme.auth), {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'events[2].node',
      });
      await s.waitForEventCount(acme.auth, key, 4 + 4);
    });
  });
});
