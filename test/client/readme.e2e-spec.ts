import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformSync } from '@swc/core';
import { type IssuedKey, Services } from '../conformance/support/services';
import { WatchScript } from '../conformance/support/watch-events';

const REPO = join(__dirname, '..', '..');
const CLIENT = join(REPO, 'libs', 'client');

/**
 * The `ts` blocks of libs/client/README.md, in order, as one module: the imports of the client
 * merged at the top (from `from`), then every block's code.
 */
function readmeModule(from: string): string {
  const readme = readFileSync(join(CLIENT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const names = new Set<string>();
  const body = blocks
    .join('\n')
    .replace(/^import \{([^}]*)\} from '@graph-history\/client';\n/gm, (_all, list: string) => {
      for (const name of list.split(',')) if (name.trim()) names.add(name.trim());
      return '';
    });
  return `import { ${[...names].join(', ')} } from '${from}';\n${body}`;
}

function run(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      args,
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout, err: stderr }),
    ),
  );
}

/** The client README's examples, type-checked and run as a new user would, against the services. */
describe('client: README examples', () => {
  let s: Services;
  let key: IssuedKey;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gh-client-readme-'));
    s = await Services.start();
    key = await s.createKey('readme');
    const script = new WatchScript(Date.now() - 60_000, 100)
      .session('S', { title: 'Readme session' })
      .agent('S/a', 'S', { agent_type: 'Explore' })
      .event('tasks.updated', 'S/a', { tasks: [{ id: 't1', content: 'Read', status: 'pending' }] })
      .agent('S/b', 'S')
      .status('S/b', 'working', 'Busy');
    await s.load(key, 'readme', script.events);
  }, 90_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await s?.stop();
  });

  it('type-check against the client’s types', async () => {
    writeFileSync(
      join(dir, 'examples.ts'),
      `${readmeModule('@graph-history/client')}\nexport {};\n`,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: join(REPO, 'tsconfig.json'),
        compilerOptions: {
          baseUrl: REPO,
          typeRoots: [join(REPO, 'node_modules', '@types')],
          types: ['node'],
          module: 'es2022',
          moduleResolution: 'bundler',
          target: 'es2022',
        },
        files: [join(dir, 'examples.ts')],
        include: [],
      }),
    );
    const tsc = await run([
      join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      join(dir, 'tsconfig.json'),
    ]);
    expect(tsc.out + tsc.err).toBe('');
    expect(tsc.code).toBe(0);
  }, 120_000);

  it('run with the ES module build under Node and print what they say', async () => {
    const source = readmeModule(join(CLIENT, 'dist', 'esm', 'index.js'));
    const { code } = transformSync(source, {
      filename: 'examples.ts',
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'es6' },
    });
    writeFileSync(join(dir, 'examples.mjs'), code);
    const result = await run([join(dir, 'examples.mjs')], {
      GRAPH_HISTORY_KEY: key.key,
      GRAPH_HISTORY_API_URL: s.apiBaseUrl,
      GRAPH_ID: 'gph_readme',
    });
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const lines = result.out.trimEnd().split('\n');
    expect(lines[0]).toBe('gph_readme 3 nodes');
    expect(lines).toContain('5 events retained');
    expect(lines).toContain('root Readme session');
    expect(lines).toContain('0 children, 0 tasks');
    expect(lines).toContainEqual(
      expect.stringMatching(/^3 nodes; the 3 events before the newest: /),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^status S\/b$/));
    expect(lines.at(-3)).toMatch(/^404 resource_missing node_id req_/);
    expect(lines.slice(-2)).toEqual(['verified ntc_example node.failed', 'no_matching_signature']);
  }, 60_000);

  it('the ES module build imports nothing of Node (it runs in browsers)', () => {
    const files = (d: string): string[] =>
      readdirSync(d).flatMap((f) =>
        statSync(join(d, f)).isDirectory() ? files(join(d, f)) : [join(d, f)],
      );
    const code = files(join(CLIENT, 'dist', 'esm')).filter((f) => f.endsWith('.js'));
    expect(code.length).toBeGreaterThan(5);
    for (const file of code) {
      const text = readFileSync(file, 'utf8');
      expect(text).not.toMatch(
        /\bfrom ['"](node:|[a-z@][^'"]*)['"]|\brequire\(|\bprocess\.|\bBuffer\b/,
      );
    }
  });
});
