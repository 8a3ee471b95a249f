import { execFile } from 'node:child_process';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');

/**
 * The client's types at compile time: the expansion checks in types/expand-types.ts (each
 * `@ts-expect-error` must be an error, so a type that is too loose fails) and every client test.
 */
describe('client: types', () => {
  it('type-checks the expectations and the client tests', async () => {
    const result = await new Promise<{ code: number; out: string }>((resolve) =>
      execFile(
        process.execPath,
        [
          join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'),
          '--noEmit',
          '-p',
          join(__dirname, 'types', 'tsconfig.json'),
        ],
        { cwd: REPO },
        (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: stdout + stderr }),
      ),
    );
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);
});
