import type { TranscriptFile } from '../adapter';

/** `rollout-<local time>-<thread uuid>.jsonl`, anywhere under `$CODEX_HOME/sessions`. */
const ROLLOUT =
  /(?:^|\/)rollout-[^/]*?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** The thread id a rollout file is named after, or undefined when the path is no rollout. */
export function rolloutThreadId(path: string): string | undefined {
  return ROLLOUT.exec(path)?.[1]?.toLowerCase();
}

/**
 * Rollout files among paths relative to `$CODEX_HOME/sessions` (`YYYY/MM/DD/rollout-….jsonl`),
 * or a single rollout file. Each is its own group: which session a sub-agent belongs to is only
 * known from its first line, so the watcher groups files by what their `session_meta` says.
 */
export function detectRollouts(paths: readonly string[]): TranscriptFile[] {
  const out: TranscriptFile[] = [];
  for (const path of paths) {
    const id = rolloutThreadId(path);
    if (id !== undefined) out.push({ path, id, group: id });
  }
  return out;
}
