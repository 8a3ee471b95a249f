import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { openApiDocument } from '../../apps/api/src/openapi/openapi.document';

const REPO = join(__dirname, '..', '..');

function run(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, args, { cwd: REPO }, (err, stdout, stderr) =>
      resolve({ code: err ? 1 : 0, out: stdout + stderr }),
    ),
  );
}

/** A server answering GET /api/v1/openapi.json with `document`, for the duration of `fn`. */
async function serving<T>(document: object, fn: (baseUrl: string) => Promise<T>): Promise<T> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    return await fn(`http://127.0.0.1:${port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const check = (baseUrl: string) =>
  run([join(REPO, 'libs', 'client', 'scripts', 'generate-types.mjs'), '--check', baseUrl]);

describe('client: types', () => {
  /*
   * The expansion checks in types/expand-types.ts (each `@ts-expect-error` must be an error, so a
   * type that is too loose fails) and every client test, README examples aside.
   */
  it('type-checks the expectations and the client tests', async () => {
    const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run([tsc, '--noEmit', '-p', join(__dirname, 'types', 'tsconfig.json')]);
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);

  it('accepts the document the API builds and refuses one that differs', async () => {
    const document = openApiDocument('http://127.0.0.1:3000');
    const same = await serving(document, check);
    expect(same.out).toContain("the client's types match");
    expect(same.code).toBe(0);

    const changed = structuredClone(document) as {
      components: { schemas: Record<string, { required: string[]; properties: object }> };
    };
    changed.components.schemas.Graph!.required.push('owner');
    changed.components.schemas.Graph!.properties = {
      ...changed.components.schemas.Graph!.properties,
      owner: { type: 'string' },
    };
    const differs = await serving(changed, check);
    expect(differs.out).toContain('differ from those of the document the API serves');
    expect(differs.code).toBe(1);
  }, 60_000);
});
