import { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { API_NODE_FLAGS } from '../../libs/config/src/node-flags';
import { freePort, startServer } from './child-server';

export interface Running {
  process: ChildProcess;
  baseUrl: string;
}

const API_MAIN = path.resolve(__dirname, '../../apps/api/dist/main.js');

/**
 * The built API on 127.0.0.1 against the bench database, rate limits and the account's bound on
 * concurrent expensive reads out of the way (the bench measures speed, not fairness: with the
 * default ACCOUNT_CONCURRENCY of 1, the mixed scenario's pages queue and are refused with 429);
 * started with the API's node flags (both sides of bench:api-ab: they compare code, not flags);
 * `nodeArgs` go before the script (e.g. `--cpu-prof` or a `-r` preload), `env` adds variables,
 * `main` is another checkout's built API (bench:api-ab).
 */
export async function startApi(
  databaseUrl: string,
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
  main = API_MAIN,
): Promise<Running> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = await startServer(
    [...API_NODE_FLAGS, ...nodeArgs, main],
    {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_SECOND: '1000000000',
      RATE_LIMIT_BURST: '1000000000',
      ACCOUNT_CONCURRENCY: '1000000',
      ...env,
    },
    `${baseUrl}/readyz`,
  );
  return { process: child, baseUrl };
}

/** The bare Fastify + pg baseline (bench/api-baseline-server.ts) in its own process. */
export async function startBaseline(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<Running> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = await startServer(
    [
      '-r',
      path.resolve(__dirname, '../ts-hook.js'),
      path.resolve(__dirname, '../api-baseline-server.ts'),
    ],
    { DATABASE_URL: databaseUrl, PORT: String(port), ...env },
    `${baseUrl}/ready`,
  );
  return { process: child, baseUrl };
}
