import type { TranscriptFile } from '../adapter';

/** `<root session id>/<session id>.jsonl`: one session's rows, beside its tree's other sessions. */
const ROWS = /^([^/]+)\/([^/]+)\.jsonl$/;

/**
 * Row files of an opencode project, as `watch` copies them out of opencode's SQLite database
 * (see apps/cli/src/watch/opencode): a session tree (a session and its sub-agent sessions) is one
 * group, named by its root session.
 */
export function detectRowFiles(paths: readonly string[]): TranscriptFile[] {
  const out: TranscriptFile[] = [];
  for (const path of paths) {
    const m = ROWS.exec(path);
    if (m) out.push({ path, id: m[2]!, group: m[1]! });
  }
  return out;
}
