import { ApiHarness } from './support/api-harness';

describe('GET / and /favicon.ico', () => {
  let h: ApiHarness;
  beforeAll(async () => (h = await ApiHarness.start({ PUBLIC_URL: 'https://gh.example.com' })));
  afterAll(() => h.stop());

  it('serves a landing page without a key, linking the reference, OpenAPI and the shares', async () => {
    const res = await h.get('/', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('graph-history read API');
    for (const href of [
      '/docs',
      '/docs/errors',
      '/api/v1/openapi.json',
      '/api/v1/graphs',
      '/graphs',
    ]) {
      expect(res.body).toContain(`href="${href}"`);
    }
    expect(res.body).toContain('https://gh.example.com/api/v1/graphs');
    // The links lead somewhere real.
    expect((await h.get('/docs', { key: null })).status).toBe(200);
    expect((await h.get('/api/v1/openapi.json', { key: null })).status).toBe(200);
  });

  it('serves an icon', async () => {
    const res = await fetch(`${h.baseUrl}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]); // ICO header: reserved 0, type 1
    expect(bytes.subarray(22, 26).toString('latin1')).toBe('\x89PNG');
  });
});
