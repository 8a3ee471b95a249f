import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { OpencodeRows, Row } from './opencode-db';

type Json = Record<string, unknown>;

/** opencode before 1.2 kept JSON files: `<data>/opencode/storage`, beside where the database is now. */
export const legacyStorageOf = (dbPath: string): string => join(dbPath, '..', 'storage');

async function children(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

async function readJson(path: string): Promise<{ value: Json; mtime: number } | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { value: value as Json, mtime: Math.trunc(info.mtimeMs) }
      : undefined;
  } catch {
    return undefined; // being written, or not JSON: read again next pass
  }
}

/** `<kind>/<owner>/<id>.json` files changed at or after `since` (every session file). */
async function files(root: string, kind: string, since: number) {
  const out: Array<{ owner: string; value: Json; mtime: number }> = [];
  for (const owner of await children(join(root, kind))) {
    for (const name of await children(join(root, kind, owner))) {
      if (!name.endsWith('.json')) continue;
      const path = join(root, kind, owner, name);
      if (
        kind !== 'session' &&
        Math.trunc((await stat(path).catch(() => undefined))?.mtimeMs ?? 0) < since
      )
        continue;
      const read = await readJson(path);
      if (read) out.push({ owner, ...read });
    }
  }
  return out;
}

const time = (value: Json, key: string): number | undefined => {
  const t = value['time'];
  const v = typeof t === 'object' && t !== null ? (t as Json)[key] : undefined;
  return typeof v === 'number' ? v : undefined;
};

/**
 * opencode's JSON storage (before 1.2: `storage/session/<project>/<session>.json`,
 * `message/<session>/<message>.json`, `part/<message>/<part>.json`) as the database's rows: the
 * file's JSON is the row's `data`, and a file's modification time its `time_updated`.
 */
export async function readLegacyRows(root: string, since: number): Promise<OpencodeRows> {
  const sessions: Row[] = (await files(root, 'session', since)).map(({ value, mtime }) => ({
    id: value['id'],
    parent_id: value['parentID'] ?? null,
    directory: value['directory'],
    title: value['title'],
    version: value['version'],
    time_created: time(value, 'created') ?? mtime,
    time_updated: time(value, 'updated') ?? mtime,
  }));
  const messages: Row[] = (await files(root, 'message', since)).map(({ owner, value, mtime }) => ({
    id: value['id'],
    session_id: value['sessionID'] ?? owner,
    time_created: time(value, 'created') ?? mtime,
    time_updated: mtime,
    data: value,
  }));
  const parts: Row[] = (await files(root, 'part', since)).map(({ owner, value, mtime }) => ({
    id: value['id'],
    message_id: value['messageID'] ?? owner,
    session_id: value['sessionID'],
    time_created: mtime,
    time_updated: mtime,
    data: value,
  }));
  return { sessions, messages, parts };
}
