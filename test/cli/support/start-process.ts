import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../support/free-port';
import { testQueuePrefix } from '../../support/redis-keys';

const CLI = path.resolve(__dirname, '../../../apps/cli/dist/main.js');

export interface StartedService {
  child: ChildProcess;
  /** What it printed up to and with its banner. */
  banner: string;
  exited: Promise<number | null>;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

/** The built CLI's `start`; resolves once the banner is printed. */
export async function startService(env: NodeJS.ProcessEnv): Promise<StartedService> {
  const child = spawn(process.execPath, [CLI, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  let out = '';
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const banner = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${out}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    void exited.then((code) => reject(new Error(`start exited with ${code}:\n${out}`)));
  });
  return { child, banner, exited, output: () => out };
}

/** The environment of a `start` on `databaseUrl`: free ports, its own DATA_DIR and queue prefix. */
export async function serviceEnv(databaseUrl: string, dataDir: string): Promise<NodeJS.ProcessEnv> {
  return {
    PATH: process.env.PATH,
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL,
    PORT: String(await freePort()),
    INGEST_PORT: String(await freePort()),
    DATA_DIR: dataDir,
    QUEUE_PREFIX: testQueuePrefix(),
    LOG_LEVEL: 'warn',
  };
}
