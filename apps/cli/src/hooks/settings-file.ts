import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CliError } from '../cli-error';

type Obj = Record<string, unknown>;

/** Claude Code's settings: the user's (`~/.claude/settings.json`) or a project's. */
export function settingsPath(home: string, project?: string): string {
  return project === undefined
    ? join(home, '.claude', 'settings.json')
    : join(project, '.claude', 'settings.json');
}

/** The settings object; `{}` when the file does not exist. A file that is not JSON stops here. */
export async function readSettings(path: string): Promise<Obj> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new CliError(`${path} is not valid JSON (${(err as Error).message}); left unchanged.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new CliError(`${path} does not hold a JSON object; left unchanged.`);
  return parsed as Obj;
}

/** Replaces the file atomically (write, then rename), 2-space indented like Claude Code writes it. */
export async function writeSettings(path: string, settings: Obj): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(settings, null, 2)}\n`);
  await rename(tmp, path);
}
