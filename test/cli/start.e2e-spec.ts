import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { cli } from './support/run-cli';
import { serviceEnv, startService } from './support/start-process';
import { freePort } from '../support/free-port';

async function poll<T>(fn: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const value = await fn();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('graph-history start', () => {
  it('says in one line how to start Redis when it is unreachable, and exits non-zero', async () => {
    const run = await cli(['start'], { REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^error: Redis is not reachable at redis:\/\/127\.0\.0\.1:\d+: .*docker compose up -d.*redis-server --daemonize yes/,
    );
  });

  describe('on an empty database', () => {
    let t: TestDatabase;
    let dataDir: string;
    let env: NodeJS.ProcessEnv;
    beforeAll(async () => {
      t = await createTestDatabase();
      dataDir = mkdtempSync(path.join(tmpdir(), 'gh-start-'));
      env = await serviceEnv(t.url, dataDir);
    });
    afterAll(async () => {
      await t.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('creates a demo account, prints a working curl line, feeds a live share, and stops on Ctrl-C', async () => {
      const { child, banner, exited } = await startService(env);
      try {
        const curl = new RegExp(
          `curl -H "Authorization: Bearer (sk_live_\\w{32})" (http://127\\.0\\.0\\.1:${env.PORT}/api/v1/graphs)`,
        ).exec(banner);
        expect(curl).not.toBeNull();
        const [, key, url] = curl!;
        const headers = { authorization: `Bearer ${key}` };
        const list = await fetch(url!, { headers });
        expect(list.status).toBe(200);

        // The simulated share's backfill is readable within seconds, and live events keep coming.
        const graph = await poll(async () => {
          const body = (await (await fetch(url!, { headers })).json()) as {
            data: { id: string; retention: { event_count: number } }[];
          };
          const demo = body.data.find((g) => g.id === 'gph_demo-1');
          return demo && demo.retention.event_count > 100 ? demo : null;
        }, 30_000);
        await poll(async () => {
          const g = (await (await fetch(`${url}/gph_demo-1`, { headers })).json()) as {
            retention: { event_count: number };
          };
          return g.retention.event_count > graph.retention.event_count ? g : null;
        }, 20_000);
      } finally {
        child.kill('SIGINT');
      }
      expect(await exited).toBe(0);
      await expect(fetch(`http://127.0.0.1:${env.PORT}/api/v1/graphs`)).rejects.toThrow();
    });

    it('on restart, continues the demo story from now with the kept key and says where to read it; SIGTERM exits 0', async () => {
      const keyFile = path.join(dataDir, 'demo-key');
      const key = readFileSync(keyFile, 'utf8').trim();
      const url = `http://127.0.0.1:${env.PORT}/api/v1/graphs/gph_demo-1`;
      const headers = { authorization: `Bearer ${key}` };
      const stored = async () =>
        (await t.db.selectFrom('events').select(['seq', 'created', 'node_no']).execute()).sort(
          (a, b) => a.seq - b.seq,
        );
      const earlier = await stored();
      const restartedAt = Date.now();
      const { child, banner, exited } = await startService(env);
      try {
        expect(banner).not.toMatch(/sk_live_/);
        expect(banner).toContain(`curl -H "Authorization: Bearer $(cat ${keyFile})" ${url}`);
        expect(banner).toContain('its story goes on from now');
        await poll(
          async () => ((await count(url, headers)) > earlier.length ? true : null),
          30_000,
        );
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
      // No history re-fed: a few new events, each dated from the restart on, and the story's
      // agents go on (new events touch nodes the graph already had).
      const added = (await stored()).slice(earlier.length);
      expect(added.length).toBeGreaterThan(0);
      expect(added.length).toBeLessThan(30);
      for (const e of added) expect(e.created).toBeGreaterThanOrEqual(restartedAt - 4_000);
      const knownNodes = new Set(earlier.map((e) => e.node_no));
      expect(added.some((e) => knownNodes.has(e.node_no))).toBe(true);
      const accounts = await t.db.selectFrom('accounts').select('name').execute();
      expect(accounts).toEqual([{ name: 'demo' }]);
      expect(await t.db.selectFrom('api_keys').select('key_id').execute()).toHaveLength(1);
    });

    it('on a database with accounts but no demo account, feeds nothing and says how to make a key', async () => {
      await t.db.updateTable('accounts').set({ name: 'acme' }).execute();
      const { child, banner, exited } = await startService(env);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(banner).not.toMatch(/sk_live_|gph_demo-1/);
      expect(banner).toContain('pnpm exec graph-history keys create --account NAME');
    });
  });
});

async function count(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { headers });
  return ((await res.json()) as { retention: { event_count: number } }).retention.event_count;
}
