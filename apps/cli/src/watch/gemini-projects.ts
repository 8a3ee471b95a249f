import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { geminiAdapter } from '@graph-history/adapters';
import type { FolderLayout, ProjectFolder } from './folder-projects-finder';
import { claudeProjectName } from './projects';

/**
 * Where Gemini CLI keeps chats: `<home>/.gemini/tmp`, home being GEMINI_CLI_HOME when set (as
 * gemini-cli's own `homedir()` does), else the user's home.
 */
export function defaultGeminiProjectsDir(env: NodeJS.ProcessEnv): string {
  return join(env['GEMINI_CLI_HOME'] || env['HOME'] || homedir(), '.gemini', 'tmp');
}

/**
 * A Gemini CLI project folder (`tmp/<project>`): it holds `chats/`, and since the project registry
 * a `.project_root` file naming the working directory, so the graph is the one Claude Code's
 * sessions of that directory share. Older folders are named by a hash of it: the name stays.
 */
async function geminiProject(dir: string): Promise<ProjectFolder | undefined> {
  const root = (await readFile(join(dir, '.project_root'), 'utf8').catch(() => ''))
    .split('\n')[0]!
    .trim();
  const chats = await stat(join(dir, 'chats')).catch(() => undefined);
  if (!chats?.isDirectory()) return undefined;
  return root.startsWith('/')
    ? { name: claudeProjectName(root), dir, what: `the Gemini CLI sessions of ${root}` }
    : { name: basename(dir), dir, what: `the Gemini CLI sessions in ${dir}` };
}

export const GEMINI_LAYOUT: FolderLayout = {
  label: 'Gemini CLI',
  adapter: geminiAdapter,
  depth: 3,
  project: geminiProject,
};
