import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const GRAPH_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function defaultProjectsDir(home = homedir()): string {
  return join(home, '.claude', 'projects');
}

export function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

/** Claude Code names a project's folder after its working directory, every other character `-`. */
export function claudeProjectName(workingDir: string): string {
  return resolve(workingDir).replace(/[^A-Za-z0-9]/g, '-');
}

/** A folder name in graph-key characters: other runs become `-`, `-`/`_` at either end go. */
export const inKeyCharacters = (name: string): string =>
  name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^[-_]+|[-_]+$/g, '');

/**
 * The graph key watch derived for a project folder before keys had a secret tag (guessable, so
 * another tenant could claim it first): kept only for projects already shared under it (see
 * ProjectGraphKeys). Long names keep their end plus a hash of the whole name.
 */
export function legacyGraphKeyFor(projectName: string): string {
  const cleaned = inKeyCharacters(projectName);
  if (cleaned === '') return 'claude-code';
  if (cleaned.length <= 64) return cleaned;
  const hash = createHash('sha256').update(projectName).digest('hex').slice(0, 8);
  return `${cleaned.slice(-55).replace(/^[-_]+/, '')}-${hash}`;
}

/**
 * The project folder `--project` names: a bare name is a folder under `projectsDir`; a path is
 * either such a folder or a project's working directory, whose folder Claude Code names after it.
 */
export function resolveProjectDir(projectsDir: string, project: string): string {
  if (!project.includes('/') && project !== '~' && project !== '.' && project !== '..')
    return join(projectsDir, project);
  const path = resolve(expandHome(project));
  const root = resolve(projectsDir);
  return dirname(path) === root ? path : join(root, claudeProjectName(path));
}
