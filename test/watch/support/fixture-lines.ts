import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { SourceLine, TranscriptAdapter, TranscriptFile } from '@graph-history/adapters';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'claude-code');

/** Every file path under `dir`, relative and `/`-separated, as the watcher lists them. */
export function listPaths(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const full = join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(relative(dir, full).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** The complete lines of `text` as SourceLines of `file`. */
export function linesOf(file: TranscriptFile, text: string): SourceLine[] {
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts.map((line, i) => ({ file, lineNo: i + 1, text: line }));
}

/** All lines of every transcript file an adapter detects in a fixture project directory. */
export function fixtureLines<S>(adapter: TranscriptAdapter<S>, dir: string): SourceLine[] {
  return adapter
    .detect(listPaths(dir))
    .flatMap((file) => linesOf(file, readFileSync(join(dir, file.path), 'utf8')));
}
