import { MAX_CREATED_AHEAD_MS } from '@graph-history/domain';
import { endpointFixture, EndpointFixture } from './support/endpoint-fixture';
import { watchEvent } from './support/watch-events';

/** A `created` far ahead of the server's clock would hold the graph's clock there for good. */
describe('ingestor: created ahead of the clock', () => {
  let f: EndpointFixture;
  beforeAll(async () => {
    f = await endpointFixture(false);
  });
  afterAll(() => f.close());

  it('refuses the batch with 400 events[i].created beyond the window, storing nothing', async () => {
    const soon = Date.now() + MAX_CREATED_AHEAD_MS - 60_000;
    for (const created of [8_640_000_000_000_000, Date.now() + MAX_CREATED_AHEAD_MS + 60_000]) {
      const res = await f.post('future', {
        events: [
          watchEvent('f-0', 'session.started', 'f-s', {}, soon),
          watchEvent(`f-1-${created}`, 'activity', 'f-s', {}, created),
        ],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'parameter_invalid',
        param: 'events[1].created',
      });
      expect(res.json().error.message).toMatch(/15 minutes ahead/);
    }
    expect(await f.graphRow('future')).toBeUndefined();
    // within the window is accepted
    expect(
      (await f.send('future', [watchEvent('f-0', 'session.started', 'f-s', {}, soon)])).accepted,
    ).toBe(1);
  });
});
