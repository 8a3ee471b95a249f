import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';

/**
 * Where the demo share's story stands: its seed and first moment (which make the simulation
 * repeatable), how many of its events were acknowledged by the ingestor, and how far its later
 * events were moved forward in time (the time `start` was not running).
 */
export interface DemoPosition {
  seed: string;
  startTime: number;
  sent: number;
  shiftMs: number;
  /** Which database holds the story (databaseIdentity): another one starts a new story. */
  database?: string;
}

/** A short fingerprint of a database URL: a kept position applies to that database only. */
export const databaseIdentity = (url: string): string =>
  createHash('sha256').update(url).digest('hex').slice(0, 16);

/** The position kept in `file` (DATA_DIR/demo-feed.json), or null when there is none or it is unreadable. */
export async function readDemoPosition(file: string): Promise<DemoPosition | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const p = JSON.parse(text) as Partial<DemoPosition>;
    const whole = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
    if (typeof p.seed === 'string' && whole(p.startTime) && whole(p.sent) && whole(p.shiftMs)) {
      const { seed, startTime, sent, shiftMs } = p;
      return { seed, startTime, sent, shiftMs, ...(p.database ? { database: p.database } : {}) };
    }
  } catch {
    // a torn or foreign file: start a new story
  }
  return null;
}

/** Replaces the kept position atomically (a crash leaves the old one or the new one). */
export async function writeDemoPosition(file: string, position: DemoPosition): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(position)}\n`);
  await rename(temp, file);
}
