import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = path.resolve(__dirname, '../..');
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * The client as someone outside the repository gets it: `npm pack` of libs/client (after
 * `pnpm build`), installed offline into an empty folder, used from plain Node (CommonJS and ES
 * module) and compiled by TypeScript under `strict`.
 */
describe('@graph-history/client packed and installed elsewhere', () => {
  let dir: string;
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gh-client-pack-'));
    server = createServer((req, res) => {
      const ok =
        req.headers.authorization === 'Bearer sk_live_packed' &&
        req.url?.startsWith('/api/v1/graphs');
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          ok
            ? { object: 'list', url: '/api/v1/graphs', has_more: false, data: [] }
            : {
                error: {
                  type: 'authentication_error',
                  code: 'api_key_invalid',
                  message: 'no',
                  param: null,
                  doc_url: null,
                },
              },
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs from its tarball without network and works from Node and TypeScript', async () => {
    await run('npm', ['pack', '--pack-destination', dir], { cwd: path.join(REPO, 'libs/client') });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    expect(tarball).toMatch(/^graph-history-client-[\d.]+\.tgz$/);
    const { stdout: listing } = await run('tar', ['-tzf', path.join(dir, tarball)]);
    expect(listing).toContain('package/dist/esm/index.js');
    expect(listing).toContain('package/dist/cjs/index.d.ts');
    expect(listing).not.toMatch(/tsbuildinfo|\.spec\.ts/);

    const app = path.join(dir, 'app');
    await run('mkdir', [app]);
    writeFileSync(
      path.join(app, 'package.json'),
      '{ "name": "app", "version": "1.0.0", "private": true }\n',
    );
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(dir, tarball)], {
      cwd: app,
      env: { ...process.env, npm_config_registry: 'http://127.0.0.1:9/' },
    });

    writeFileSync(
      path.join(app, 'list.cjs'),
      `const { GraphHistory } = require('@graph-history/client');
       new GraphHistory({ apiKey: 'sk_live_packed', baseUrl: ${JSON.stringify(baseUrl)} })
         .graphs.list().then((page) => console.log('cjs', page.data.length));`,
    );
    writeFileSync(
      path.join(app, 'list.mjs'),
      `import { GraphHistory, AuthenticationError } from '@graph-history/client';
       const bad = new GraphHistory({ apiKey: 'sk_live_wrong', baseUrl: ${JSON.stringify(baseUrl)} });
       const err = await bad.graphs.list().then(() => null, (e) => e);
       console.log('esm', err instanceof AuthenticationError, err.code);`,
    );
    expect((await run(process.execPath, ['list.cjs'], { cwd: app })).stdout).toBe('cjs 0\n');
    expect((await run(process.execPath, ['list.mjs'], { cwd: app })).stdout).toBe(
      'esm true api_key_invalid\n',
    );

    writeFileSync(
      path.join(app, 'use.mts'),
      `import { GraphHistory, type Graph } from '@graph-history/client';
       const client = new GraphHistory({ apiKey: 'sk_live_packed' });
       const graphs: Graph[] = await client.graphs.list().toArray({ limit: 10 });
       console.log(graphs.map((g) => g.counts.nodes));`,
    );
    writeFileSync(
      path.join(app, 'use.cts'),
      `import { GraphHistory } from '@graph-history/client';
       export const pages = (key: string) => new GraphHistory({ apiKey: key }).events.list('gph_x');`,
    );
    writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          types: [],
          noEmit: true,
        },
        files: ['use.mts', 'use.cts'],
      }),
    );
    const tsc = await run(process.execPath, [TSC, '-p', app]).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );
    expect(tsc).toEqual({ code: 0, out: '' });
  }, 120_000);
});
