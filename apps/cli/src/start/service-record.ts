import { readFileSync, rmSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where a running `start` listens, kept in DATA_DIR/service.json while it runs, so that the CLI's
 * other commands (another terminal, same DATA_DIR) reach the same service without flags.
 */
export interface ServiceRecord {
  pid: number;
  apiUrl: string;
  ingestUrl: string;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  started: number;
}

/** The settings a running service fills in when the environment leaves them unset. */
const SETTINGS = {
  GRAPH_HISTORY_API_URL: 'apiUrl',
  GRAPH_HISTORY_URL: 'ingestUrl',
  DATABASE_URL: 'databaseUrl',
  REDIS_URL: 'redisUrl',
  QUEUE_PREFIX: 'queuePrefix',
} as const satisfies Record<string, keyof ServiceRecord>;

export const serviceRecordFile = (dataDir: string): string => path.resolve(dataDir, 'service.json');

/** Writes the record (readable by this user only: the database URL holds a password). */
export async function writeServiceRecord(dataDir: string, record: ServiceRecord): Promise<void> {
  const file = serviceRecordFile(dataDir);
  await writeFile(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

/** Removes the record if it is this process's. */
export function removeServiceRecord(dataDir: string): void {
  if (readRecord(dataDir)?.pid === process.pid) rmSync(serviceRecordFile(dataDir), { force: true });
}

/**
 * The record of a `start` that still runs from `dataDir`, or null. A record left by a start that
 * crashed (its pid gone, or reused by a process that is not the CLI) is stale: ignored.
 */
export function runningService(dataDir: string): ServiceRecord | null {
  const record = readRecord(dataDir);
  return record && record.pid !== process.pid && isCliProcess(record.pid) ? record : null;
}

/** `env` with the unset settings taken from the running service's record, if there is one. */
export function withRunningService(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const record = runningService(env.DATA_DIR || '.data');
  if (!record) return env;
  const filled: NodeJS.ProcessEnv = { ...env };
  for (const [variable, field] of Object.entries(SETTINGS)) {
    if (!env[variable]) filled[variable] = String(record[field]);
  }
  return filled;
}

function readRecord(dataDir: string): ServiceRecord | null {
  try {
    const record = JSON.parse(readFileSync(serviceRecordFile(dataDir), 'utf8')) as ServiceRecord;
    return Number.isInteger(record.pid) && typeof record.apiUrl === 'string' ? record : null;
  } catch {
    return null;
  }
}

function isCliProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // Where /proc exists, a pid reused by another program does not count.
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('start');
  } catch {
    return true;
  }
}
