import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Transcript layouts nest at most this deep: `<session>/subagents/agent-<id>.jsonl` is 3, a
 * workflow's agent `<session>/subagents/workflows/<run>/agent-<id>.jsonl` is 5.
 */
const MAX_DEPTH = 5;

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return [];
    throw err;
  }
}

/** Paths of the files under `root`, relative and `/`-separated; the adapter picks its own. */
export async function listRelativeFiles(
  root: string,
  depth = MAX_DEPTH,
  prefix = '',
): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await entries(join(root, prefix))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isFile()) out.push(rel);
    else if (entry.isDirectory() && depth > 1)
      out.push(...(await listRelativeFiles(root, depth - 1, rel)));
  }
  return out.sort();
}

/** The immediate sub-directories of `dir` (Claude Code keeps one per project). */
export async function listSubdirectories(dir: string): Promise<string[]> {
  return (await entries(dir))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}
