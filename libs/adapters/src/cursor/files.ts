import type { TranscriptFile } from '../adapter';

/** `<id>/<id>.jsonl`: a session (a Cursor agent conversation). */
const SESSION = /^([^/]+)\/([^/]+)\.jsonl$/;
/** `<id>/subagents/<child>.jsonl`: a sub-agent the session ran. */
const SUBAGENT = /^([^/]+)\/subagents\/([^/]+)\.jsonl$/;

/**
 * Cursor agent transcripts among paths relative to a project's `agent-transcripts` folder: a
 * session's `<id>/<id>.jsonl` and its sub-agents' `<id>/subagents/<child>.jsonl`, grouped by session.
 */
export function detectTranscripts(paths: readonly string[]): TranscriptFile[] {
  const out: TranscriptFile[] = [];
  for (const path of paths) {
    const session = SESSION.exec(path);
    if (session && session[1] === session[2]) {
      out.push({ path, id: session[1]!, group: session[1]! });
      continue;
    }
    const sub = SUBAGENT.exec(path);
    if (sub) out.push({ path, id: `${sub[1]!}/subagents/${sub[2]!}`, group: sub[1]! });
  }
  return out;
}

/** The session and (for a sub-agent) the child id a file id names. */
export function idsOf(fileId: string): { session: string; child?: string } {
  const [session, , child] = fileId.split('/');
  return child === undefined ? { session: session! } : { session: session!, child };
}
