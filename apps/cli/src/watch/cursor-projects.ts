import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { cursorAdapter } from '@graph-history/adapters';
import type { FolderLayout, ProjectFolder } from './folder-projects-finder';

/** Where Cursor keeps its agents' transcripts: `~/.cursor/projects/<cwd flattened>/agent-transcripts`. */
export function defaultCursorProjectsDir(env: NodeJS.ProcessEnv): string {
  return join(env['HOME'] || homedir(), '.cursor', 'projects');
}

/**
 * A Cursor project folder: named after its working directory, every non-alphanumeric character
 * `-` and the leading one dropped (`/home/dev/shop` -> `home-dev-shop`); Claude Code keeps that
 * leading `-`, so the same directory gets the same graph. Its transcripts are in `agent-transcripts`.
 */
async function cursorProject(dir: string): Promise<ProjectFolder | undefined> {
  const transcripts = join(dir, 'agent-transcripts');
  if (!(await stat(transcripts).catch(() => undefined))?.isDirectory()) return undefined;
  const folder = basename(dir);
  return {
    name: `-${folder.replace(/[^A-Za-z0-9]/g, '-')}`,
    dir: transcripts,
    what: `the Cursor sessions in ${dir}`,
  };
}

export const CURSOR_LAYOUT: FolderLayout = {
  label: 'Cursor',
  adapter: cursorAdapter,
  depth: 3,
  project: cursorProject,
};
