import { ERROR_CATALOG } from '../../apps/api/src/docs/error-catalog';
import { MAX_EXPANDED_OBJECTS } from '../../apps/api/src/expand/expand-budget';
import {
  MAX_EXPAND_LEVELS,
  MAX_EXPAND_PATHS,
  NODE_EXPANSIONS,
} from '../../apps/api/src/expand/expand-paths';
import { ApiHarness } from './support/api-harness';

describe('GET /docs (the API reference)', () => {
  let h: ApiHarness;
  let html: string;
  beforeAll(async () => {
    h = await ApiHarness.start();
    const res = await h.get('/docs', { key: null });
    expect(res.status).toBe(200);
    html = res.body;
  });
  afterAll(() => h.stop());

  it('renders every section with an anchor that its in-page links reach', () => {
    const ids = new Set([...html.matchAll(/<h[1-6] id="([^"]+)"/g)].map((m) => m[1]));
    for (const id of ['authentication', 'errors', 'rate-limits', 'reading-at-a-moment-as_of']) {
      expect(ids).toContain(id);
    }
    const targets = [...html.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((t) => !ids.has(t))).toEqual([]);
  });

  it('lists every error code of the error reference, with its status, in the Errors table', () => {
    const rows = [
      ...html.matchAll(
        /<tr>\s*<td>([^<]+)<\/td>\s*<td><code>[^<]+<\/code><\/td>\s*<td><code>([a-z_]+)<\/code><\/td>/g,
      ),
    ];
    const documented = new Map(rows.map((m) => [m[2], m[1]]));
    for (const e of ERROR_CATALOG) {
      expect([e.code, documented.get(e.code)?.split(' ')[0]]).toEqual([e.code, String(e.status)]);
    }
    expect([...documented.keys()].sort()).toEqual(ERROR_CATALOG.map((e) => e.code).sort());
  });

  it('names every expansion, and the expand limits, as the code has them', () => {
    const sentence = /Expansions \(([^)]*)\) appear/.exec(html)?.[1] ?? '';
    const named = [...sentence.matchAll(/<code>([^<]+)<\/code>/g)].map((m) => m[1]);
    expect(named).toEqual([...NODE_EXPANSIONS]);
    expect(html).toContain(`At most ${MAX_EXPAND_LEVELS} levels per path`);
    expect(html).toContain(`At most ${MAX_EXPAND_PATHS} paths per request`);
    expect(html).toContain(
      `At most ${MAX_EXPANDED_OBJECTS.toLocaleString('en')} expanded objects per response`,
    );
  });

  it('stands alone: it cites no outside specification', () => {
    expect(html).not.toMatch(/read-api\.md|ingest\.md|decisions\.md|the contract/i);
  });
});
