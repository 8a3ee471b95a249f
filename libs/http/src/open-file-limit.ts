import { readFileSync } from 'node:fs';

/** Descriptors kept for everything but client connections: pools, Redis, files, the runtime. */
const RESERVED_DESCRIPTORS = 256;

/** The process's soft limit of open files (Linux), or undefined where it cannot be read. */
function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** `wanted` connections, lowered so that they leave RESERVED_DESCRIPTORS free under the limit. */
export function connectionsWithinFileLimit(wanted: number): number {
  const limit = openFileLimit();
  if (limit === undefined) return wanted;
  return Math.min(wanted, Math.max(64, limit - RESERVED_DESCRIPTORS));
}
