import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { TranscriptAdapter } from '@graph-history/adapters';
import { listRelativeFiles, listSubdirectories } from './file-listing';

/** What `watch --dir` points at. */
export type WatchTarget =
  /** The folder of projects (`~/.claude/projects`): one sub-folder per project. */
  | { kind: 'projects'; dir: string }
  /** One project's folder. */
  | { kind: 'project'; dir: string }
  /** One session: its transcript file (and its sub-agent files beside it). */
  | { kind: 'session'; dir: string; group: string; file: string };

/**
 * Tells the three apart: a transcript file is one session; a folder holding transcripts is a
 * project; any other folder is a folder of projects (perhaps still empty).
 */
export async function resolveTarget<S>(
  path: string,
  adapter: Pick<TranscriptAdapter<S>, 'detect'>,
): Promise<WatchTarget | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return undefined;
  if (info.isFile()) {
    const [file] = adapter.detect([basename(path)]);
    return file
      ? { kind: 'session', dir: dirname(path), group: file.group, file: path }
      : undefined;
  }
  const own = adapter.detect(await listRelativeFiles(path));
  return own.length > 0 ? { kind: 'project', dir: path } : { kind: 'projects', dir: path };
}

/** The project folders a target covers now (a folder of projects gains some over time). */
export async function projectDirs(target: WatchTarget): Promise<string[]> {
  if (target.kind !== 'projects') return [target.dir];
  return (await listSubdirectories(target.dir)).map((name) => join(target.dir, name));
}

/** One line saying what was found: `3 sessions in 2 projects under DIR`. */
export function describeFound(target: WatchTarget, sessions: number, projects: number): string {
  const s = `${sessions} session${sessions === 1 ? '' : 's'}`;
  switch (target.kind) {
    case 'session':
      return `Following the session in ${target.file}.`;
    case 'project':
      return `Found ${s} in the project folder ${target.dir}.`;
    case 'projects':
      return `Found ${s} in ${projects} project${projects === 1 ? '' : 's'} under ${target.dir}.`;
  }
}
