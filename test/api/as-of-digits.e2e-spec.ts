import { ApiHarness } from './support/api-harness';
import { EventScript } from './support/watch-events';

/** An all-digit as_of is a time in ms however many digits it has. */
describe('read API: as_of of many digits', () => {
  let h: ApiHarness;
  const T = 1_700_000_000_000;
  beforeAll(async () => {
    h = await ApiHarness.start();
    await h.seed('g', new EventScript(T).session('s').activity('s').events);
  });
  afterAll(() => h.stop());

  it.each(['99999999999999999', '9'.repeat(40), '1' + '0'.repeat(400)])(
    'answers %s as a time in the future',
    async (asOf) => {
      const r = await h.get(`/api/v1/graphs/gph_g?as_of=${asOf}`);
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'parameter_invalid', param: 'as_of' });
      expect(r.json.error.message).toMatch(/in the future/);
      expect(r.json.error.message).toContain(asOf.slice(0, 16));
    },
  );

  it('reads leading zeros as the time they spell', async () => {
    const r = await h.get(`/api/v1/graphs/gph_g?as_of=000000${T + 500}`);
    expect(r.status).toBe(200);
    expect(r.json.as_of_event_id).toMatch(/^evt_/);
    expect(r.json.counts.nodes).toBe(1);
  });
});
