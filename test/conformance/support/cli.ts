import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', '..', 'apps', 'cli', 'dist', 'main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built command-line tool (`node apps/cli/dist/main.js …`). */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (pnpm build)`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export interface IssuedKey {
  key: string;
  id: string;
  account: string;
  /** `Authorization` header value. */
  auth: string;
}

/** `keys create --account NAME [--restricted gph_a,gph_b] --json` against the given database. */
export async function createKeyWithCli(
  databaseUrl: string,
  account: string,
  restrictedTo?: string[],
): Promise<IssuedKey> {
  const args = ['keys', 'create', '--account', account, '--json'];
  if (restrictedTo) args.push('--restricted', restrictedTo.join(','));
  const res = await runCli(args, { DATABASE_URL: databaseUrl });
  if (res.code !== 0) throw new Error(`keys create failed (${res.code}): ${res.stderr}`);
  const parsed = JSON.parse(res.stdout) as { key: string; id: string; account: string };
  return { ...parsed, auth: `Bearer ${parsed.key}` };
}

export async function revokeKeyWithCli(databaseUrl: string, id: string): Promise<void> {
  const res = await runCli(['keys', 'revoke', id], { DATABASE_URL: databaseUrl });
  if (res.code !== 0) throw new Error(`keys revoke failed (${res.code}): ${res.stderr}`);
}
