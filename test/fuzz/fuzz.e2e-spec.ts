import fc from 'fast-check';
import { ApiHarness } from '../api/support/api-harness';
import { EventScript } from '../api/support/watch-events';
import { createKey } from '../ingestor/support/api-keys';
import { endpointFixture, EndpointFixture } from '../ingestor/support/endpoint-fixture';
import { watchEvent } from '../ingestor/support/watch-events';
import { apiRequest, FuzzContext, FuzzRequest, ingestRequest } from './fuzz-requests';
import { sendFuzz } from './fuzz-send';
import { describeRequest, judge } from './fuzz-verdict';

/** Requests per app in `pnpm test`; `pnpm fuzz` sends 100,000. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

/**
 * The standing hostile test: fast-check requests over every route, parameter and header of both
 * apps, with malformed paths, encodings and bodies. Every answer is below 500, an error is in the
 * envelope, and each carries a Request-Id (timing is left to `pnpm fuzz`, which reports it).
 */
async function expectSound(baseUrl: string, arbitrary: fc.Arbitrary<FuzzRequest>): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arbitrary, async (req) => {
      const res = await sendFuzz(baseUrl, req);
      const violations = judge(req, res).filter((v) => v !== 'over-1s');
      if (violations.length > 0)
        throw new Error(
          `${violations.join(', ')}: ${describeRequest(req)} -> ${res.status} ${res.body.slice(0, 300)}`,
        );
    }),
    { numRuns: RUNS },
  );
}

describe('fuzz: read API', () => {
  let h: ApiHarness;
  let ctx: FuzzContext;
  beforeAll(async () => {
    h = await ApiHarness.start();
    const s = new EventScript(Date.now() - 600_000, 100)
      .session('s')
      .agent('s/a', 's')
      .agent('s/b', 's/a');
    s.tasks('s/a', [{ content: 'x', status: 'pending' }])
      .waitStarted('s', ['s/a'])
      .message('s', 's/a', 'hi');
    s.status('s/b', 'idle', 'resting').ended('s/b');
    await h.seed('fz', s.events);
    const nodes = await h.get('/api/v1/graphs/gph_fz/nodes');
    const events = await h.get('/api/v1/graphs/gph_fz/events');
    ctx = {
      keys: {
        secret: h.secret,
        restricted: await h.key('acme', ['fz']),
        other: await h.key('globex'),
      },
      graphId: 'gph_fz',
      graphKey: 'fz',
      nodeIds: nodes.json.data.map((n: { id: string }) => n.id),
      eventIds: events.json.data.map((e: { id: string }) => e.id),
    };
  });
  afterAll(() => h.stop());

  it('answers every fuzzed request soundly', () => expectSound(h.baseUrl, apiRequest(ctx)));
});

describe('fuzz: ingestor', () => {
  let f: EndpointFixture;
  let ctx: FuzzContext;
  beforeAll(async () => {
    f = await endpointFixture(false);
    await f.send('fz', [watchEvent('fz-0', 'session.started', 'fuzz-s', {}, Date.now() - 600_000)]);
    ctx = {
      keys: {
        secret: f.owner.key,
        restricted: (await createKey(f.t.db, 'owner', ['fz'])).key,
        other: (await createKey(f.t.db, 'other')).key,
      },
      graphId: 'gph_fz',
      graphKey: 'fz',
      nodeIds: [],
      eventIds: [],
    };
  });
  afterAll(() => f.close());

  it('answers every fuzzed request soundly', () => expectSound(f.app.baseUrl, ingestRequest(ctx)));
});
