import { ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from '../cli-error';

/** Where `start` looks for Redis when REDIS_URL is unset. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export interface StartRedis {
  url: string;
  /** Whether this process runs the server (then it stops it). */
  startedHere: boolean;
  stop(): Promise<void>;
}

export interface LocalRedisOptions {
  env: NodeJS.ProcessEnv;
  /** EMBEDDED_REDIS_PORT: where a redis-server of `start`'s own listens. */
  port: number;
  /** Its files (dump.rdb): DATA_DIR/redis. */
  dir: string;
  defaultUrl?: string;
}

/**
 * The Redis `start` uses: REDIS_URL when set (it must answer); else one answering on
 * 127.0.0.1:6379; else one of `start`'s own on 127.0.0.1:EMBEDDED_REDIS_PORT, reused when it
 * already runs, otherwise a `redis-server` from the PATH run until `stop()`.
 */
export async function localRedis(o: LocalRedisOptions): Promise<StartRedis> {
  // Loaded here only: it brings NestJS along, which the other commands do not need.
  const { assertRedisReachable, redisAnswers } = await import('@graph-history/http');
  const answersPing = (url: string) => redisAnswers(url, 1_000);
  const stay = (url: string): StartRedis => ({ url, startedHere: false, stop: async () => {} });
  if (o.env.REDIS_URL) {
    await assertRedisReachable(o.env.REDIS_URL).catch((err: Error) => {
      throw new CliError(err.message);
    });
    return stay(o.env.REDIS_URL);
  }
  const fallback = o.defaultUrl ?? DEFAULT_REDIS_URL;
  if (await answersPing(fallback)) return stay(fallback);
  const own = `redis://127.0.0.1:${o.port}`;
  if (await answersPing(own)) return stay(own);
  const binary = onPath('redis-server', o.env.PATH);
  if (!binary) {
    throw new CliError(
      `Redis is not running on ${new URL(fallback).host} and no redis-server is on the PATH: ${howTo()}.`,
    );
  }
  return runRedisServer(binary, o.port, o.dir, own, answersPing);
}

async function runRedisServer(
  binary: string,
  port: number,
  dir: string,
  url: string,
  answersPing: (url: string) => Promise<boolean>,
): Promise<StartRedis> {
  await mkdir(dir, { recursive: true });
  // Own process group: Ctrl-C reaches only the CLI, which stops Redis after the apps.
  const child = spawn(
    binary,
    ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--daemonize', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  for (const stream of [child.stdout!, child.stderr!])
    stream.setEncoding('utf8').on('data', (c: string) => (output = (output + c).slice(-2_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', () => undefined); // reported below as "did not answer"
  const killNow = () => child.kill('SIGKILL');
  process.once('exit', killNow);
  const stop = async () => {
    process.removeListener('exit', killNow);
    if (!running(child)) return;
    child.kill('SIGTERM'); // Redis saves its data and exits
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  for (const deadline = Date.now() + 10_000; Date.now() < deadline && running(child);) {
    if (await answersPing(url)) return { url, startedHere: true, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  const said = output
    .trim()
    .split('\n')
    .pop()
    ?.replace(/^\d+:\w \S+ \S+ \S+ [#*.-] /, '');
  throw new CliError(
    `${binary} did not start on 127.0.0.1:${port}${said ? ` (${said})` : ''}: set EMBEDDED_REDIS_PORT to a free port, or REDIS_URL to a running Redis.`,
  );
}

/** How to get a Redis on this platform. */
function howTo(): string {
  const install =
    process.platform === 'darwin'
      ? '`brew install redis`'
      : onPath('dnf')
        ? '`dnf install redis`'
        : onPath('apk')
          ? '`apk add redis`'
          : '`apt-get install redis-server`';
  return `install it (${install}) and run \`pnpm start\` again, or run \`docker compose up -d redis\`, or set REDIS_URL`;
}

function onPath(name: string, pathVar = process.env.PATH ?? ''): string | null {
  for (const dir of pathVar.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

const running = (c: ChildProcess): boolean => c.exitCode === null && c.signalCode === null;
