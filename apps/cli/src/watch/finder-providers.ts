import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type TimedLine,
  cursorAdapter,
  geminiAdapter,
  opencodeAdapter,
} from '@graph-history/adapters';
import { CliError } from '../cli-error';
import { CURSOR_LAYOUT } from './cursor-projects';
import { FolderProjectsFinder } from './folder-projects-finder';
import { GEMINI_LAYOUT } from './gemini-projects';
import { legacyStorageOf } from './opencode/legacy-storage';
import { OpencodeFinder } from './opencode/opencode-finder';
import { expandHome } from './projects';
import { PROVIDER_LABELS, defaultDirOf } from './watch-providers';
import type { WatchLog } from './watch-log';
import { WatchRunner, type WatchRunOptions } from './watch-runner';
import type { WatchStats } from './watch-stats';

/** Providers whose projects a finder names from their own folders (or database). */
export type FinderProvider = 'gemini-cli' | 'cursor' | 'opencode';

export const isFinderProvider = (p: string): p is FinderProvider =>
  p === 'gemini-cli' || p === 'cursor' || p === 'opencode';

const FOLDER_OF_PROJECTS: Record<'gemini-cli' | 'cursor', string> = {
  'gemini-cli': '~/.gemini/tmp',
  cursor: '~/.cursor/projects',
};

/**
 * What `--dir` names for a provider (its default home when absent): Gemini CLI's and Cursor's
 * folder of projects or one project folder; opencode's database or the folder holding it.
 * `--project` is Claude Code's: these share each working directory already.
 */
export function finderProviderPath(
  provider: FinderProvider,
  given: { dir?: string; project?: string },
  env: NodeJS.ProcessEnv,
): string {
  const label = PROVIDER_LABELS[provider];
  if (given.project !== undefined)
    throw new CliError(
      `--project picks a Claude Code project; ${label} sessions are shared per working directory already (pass --dir to share only one project, or --graph to put them in one graph).`,
    );
  const path = resolve(expandHome(given.dir ?? defaultDirOf(provider, env)));
  if (provider !== 'opencode') {
    if (!existsSync(path))
      throw new CliError(
        `No ${label} folder at ${path}: run ${label} once, or pass --dir with its folder of projects (${FOLDER_OF_PROJECTS[provider]}) or one project folder.`,
      );
    return path;
  }
  const db = existsSync(path) && statSync(path).isDirectory() ? join(path, 'opencode.db') : path;
  if (!existsSync(db) && !existsSync(legacyStorageOf(db)))
    throw new CliError(
      `No opencode database at ${db} (nor the JSON storage of older versions beside it): run opencode once, or pass --dir with its opencode.db or the folder holding it.`,
    );
  return db;
}

/** The runner of a finder provider, reading `options.projectsDir` (see finderProviderPath). */
export function finderRunner(
  provider: FinderProvider,
  options: WatchRunOptions,
  log: WatchLog,
  stats: WatchStats,
): WatchRunner<unknown, TimedLine> {
  const dir = options.projectsDir;
  switch (provider) {
    case 'gemini-cli':
      return new WatchRunner(
        geminiAdapter,
        options,
        log,
        stats,
        new FolderProjectsFinder(dir, GEMINI_LAYOUT),
      ) as WatchRunner<unknown, TimedLine>;
    case 'cursor':
      return new WatchRunner(
        cursorAdapter,
        options,
        log,
        stats,
        new FolderProjectsFinder(dir, CURSOR_LAYOUT),
      ) as WatchRunner<unknown, TimedLine>;
    case 'opencode':
      return new WatchRunner(
        opencodeAdapter,
        options,
        log,
        stats,
        new OpencodeFinder(dir, options.dataDir),
      ) as WatchRunner<unknown, TimedLine>;
  }
}
