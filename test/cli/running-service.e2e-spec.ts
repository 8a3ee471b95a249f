import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runningService } from '@graph-history/cli/start/service-record';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { freePort } from '../support/free-port';
import { waitUntil } from '../support/wait';
import { FIXTURES } from '../watch/support/fixture-lines';
import { cli } from './support/run-cli';
import { serviceEnv, startService } from './support/start-process';

const CLI = path.resolve(__dirname, '../../apps/cli/dist/main.js');

describe('a running `start` found by the CLI in another terminal', () => {
  let t: TestDatabase;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    t = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'gh-running-'));
    env = await serviceEnv(t.url, dataDir);
  });
  afterAll(async () => {
    await t.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('records where it listens; keys, graphs, ingest, watch and stalled use it without flags; it says when it stopped', async () => {
    const service = await startService(env);
    const apiUrl = `http://127.0.0.1:${env.PORT}`;
    const file = path.join(dataDir, 'service.json');
    const terminal = { DATA_DIR: dataDir, PATH: process.env.PATH };
    try {
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
        pid: service.child.pid,
        apiUrl,
        ingestUrl: `http://127.0.0.1:${env.INGEST_PORT}`,
        databaseUrl: t.url,
        redisUrl: env.REDIS_URL,
      });

      const began = Date.now();
      const created = await cli(['keys', 'create', '--account', 'acme', '--json'], terminal);
      expect(created).toMatchObject({ code: 0, stderr: '' });
      expect(Date.now() - began).toBeLessThan(20_000); // not the 31 s of a second embedded Postgres
      const key = (JSON.parse(created.stdout) as { key: string }).key;
      expect(
        await t.db.selectFrom('accounts').select('name').where('name', '=', 'acme').execute(),
      ).toHaveLength(1);

      const events = path.join(dataDir, 'events.jsonl');
      const simulated = await cli(['simulate', '--graphs', '1', '--events', '5'], terminal);
      writeFileSync(events, simulated.stdout);
      const ingest = await cli(['ingest', '--file', events, '--key', key], terminal);
      expect(ingest).toMatchObject({ code: 0, stderr: '' });
      expect(ingest.stdout).toContain('5 accepted');

      // ingest answers once the events are stored; the graph is listed once they are applied
      const graphs = await waitUntil('the ingested graph listed', async () => {
        const listed = await cli(['graphs', '--key', key, '--json'], terminal);
        return listed.stdout.includes('"id":"gph_sim-1"') && listed;
      });
      expect(graphs).toMatchObject({ code: 0, stderr: '' });

      const projects = path.join(dataDir, 'projects');
      cpSync(path.join(FIXTURES, 'v1-inline-sidechains'), path.join(projects, '-path-to-Demo'), {
        recursive: true,
      });
      const watch = await cli(['watch', '--once', '--dir', projects, '--key', key], terminal);
      expect(watch).toMatchObject({ code: 0, stderr: '' });
      expect(watch.stdout).toContain(`${apiUrl}/graphs/gph_path-to-Demo`);

      expect(await cli(['stalled', 'list'], terminal)).toMatchObject({ code: 0, stderr: '' });

      // Explicit settings still win over the record.
      const elsewhere = `http://127.0.0.1:${await freePort()}`;
      const refused = await cli(['graphs', '--key', key], {
        ...terminal,
        GRAPH_HISTORY_API_URL: elsewhere,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `error: Could not reach the API at ${elsewhere} (ECONNREFUSED): is \`pnpm start\` running? If it listens elsewhere, pass --api-url or set GRAPH_HISTORY_API_URL.\n`,
      );

      // A second start on the same DATA_DIR says so at once.
      const second = await cli(['start'], { ...terminal, PORT: String(await freePort()) });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(
        `graph-history already runs from DATA_DIR ${dataDir} (pid ${service.child.pid}, read API at ${apiUrl})`,
      );
    } finally {
      service.child.kill('SIGINT');
    }
    expect(await service.exited).toBe(0);
    expect(service.output().trimEnd().split('\n').pop()).toBe('graph-history stopped.');
    expect(existsSync(file)).toBe(false);
  });

  it('ignores a record left by a start that crashed', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    const record = { pid: gone.pid, apiUrl: 'http://127.0.0.1:1', ingestUrl: 'http://127.0.0.1:1' };
    writeFileSync(path.join(dataDir, 'service.json'), JSON.stringify(record));
    expect(runningService(dataDir)).toBeNull();
    const read = await cli(['graphs', '--key', 'sk_x'], { DATA_DIR: dataDir });
    expect(read.stderr).not.toContain('http://127.0.0.1:1 ');
  });

  it('ingest says on its first failed try what it re-sends, where, and the likely fix', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const events = path.join(dataDir, 'one.jsonl');
    writeFileSync(events, (await cli(['simulate', '--graphs', '1', '--events', '1'])).stdout);
    const child = spawn(
      process.execPath,
      [CLI, 'ingest', '--file', events, '--key', 'sk_x', '--url', url],
      { env: { PATH: process.env.PATH, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const first = await new Promise<string>((resolve) => {
      let err = '';
      child.stderr!.on('data', (c: Buffer) => {
        err += c.toString();
        if (err.includes('\n')) resolve(err.split('\n')[0]!);
      });
    });
    child.kill('SIGKILL');
    expect(first).toMatch(
      new RegExp(
        `^Sending the batch failed: cannot reach ${url} \\(ECONNREFUSED\\)\\. Is \`pnpm start\` running\\? If the ingestor listens elsewhere, pass --url or set GRAPH_HISTORY_URL\\. Re-sending it \\(safe: repeats count as duplicates\\), retrying in [\\d.]+ s \\(attempt 2 of 8\\)\\.$`,
      ),
    );
  });
});
