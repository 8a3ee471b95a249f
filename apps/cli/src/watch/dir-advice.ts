import { Dirent, existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError } from '../cli-error';

const WHAT_DIR_TAKES =
  'the Claude Code projects folder (~/.claude/projects), one project folder in it, or one session .jsonl file';

/**
 * Checks the folder `watch` was pointed at, with advice that fits what was typed: a default that
 * is missing, a `--dir` that does not exist (and the near name that does), or a `--dir` that holds
 * no transcripts at all, such as a home folder (and the projects folder inside it).
 */
export function assertWatchableDir(
  folder: string,
  typed: { flag: '--dir' | '--project'; value: string } | undefined,
): void {
  if (!existsSync(folder)) {
    if (typed === undefined) {
      throw new CliError(
        `No Claude Code transcripts folder at ${folder} (where Claude Code keeps them by default): run Claude Code once, or pass --dir with ${WHAT_DIR_TAKES}.`,
      );
    }
    const near = nearName(folder);
    throw new CliError(
      `${typed.flag} ${typed.value}: ${folder} does not exist.${near ? ` Did you mean ${near}?` : ` Pass ${WHAT_DIR_TAKES}.`}`,
    );
  }
  if (typed?.flag !== '--dir' || !statSync(folder).isDirectory()) return;
  const inside = join(folder, '.claude', 'projects');
  if (existsSync(inside)) {
    throw new CliError(
      `--dir ${typed.value}: ${folder} is not a Claude Code projects folder; the one inside it is ${inside}: pass --dir ${inside}, or leave --dir out to use ~/.claude/projects.`,
    );
  }
  if (!looksLikeTranscripts(folder)) {
    throw new CliError(
      `--dir ${typed.value}: ${folder} holds no Claude Code transcripts (project folders are named like -home-me-app and hold session .jsonl files): pass ${WHAT_DIR_TAKES}.`,
    );
  }
}

/** Empty (sessions may come), or holding .jsonl files, `-…` project folders or folders of .jsonl files. */
function looksLikeTranscripts(folder: string): boolean {
  const entries = visible(folder);
  return (
    entries.length === 0 ||
    entries.some(
      (e) =>
        (e.isFile() && e.name.endsWith('.jsonl')) ||
        (e.isDirectory() &&
          (e.name.startsWith('-') ||
            visible(join(folder, e.name)).some((f) => f.name.endsWith('.jsonl')))),
    )
  );
}

function visible(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true }).filter((e) => !e.name.startsWith('.'));
  } catch {
    return [];
  }
}

/** A sibling of the missing `path` whose name is one or two edits away, if there is one. */
function nearName(path: string): string | null {
  const parent = dirname(path);
  const wanted = basename(path);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return null;
  }
  const best = names
    .map((name) => ({ name, d: editDistance(name, wanted) }))
    .filter((c) => c.d <= 2)
    .sort((a, b) => a.d - b.d)[0];
  return best ? join(parent, best.name) : null;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}
