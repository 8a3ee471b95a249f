import type { TranscriptFile } from '../adapter';

/** `chats/session-<YYYY-MM-DDTHH-MM>-<first 8 characters of the session id>.jsonl` */
const SESSION = /^chats\/(session-[^/]*?-([^/-]{1,8}))\.jsonl$/;
/** `chats/<parent session id>/<sub-agent id>.jsonl` (kind `subagent`). */
const SUBAGENT = /^chats\/([^/]+)\/([^/]+)\.jsonl$/;

/** The session a file group stands for: the first 8 characters of its id, as Gemini names it. */
const groupOf = (sessionId: string): string => sessionId.slice(0, 8);

/**
 * Gemini CLI chat files among paths relative to a project's folder (`~/.gemini/tmp/<project>`):
 * a session's `chats/session-….jsonl` and its sub-agents' `chats/<session id>/<agent id>.jsonl`,
 * grouped by session. Older `.json` files (one document per session) are not read.
 */
export function detectChats(paths: readonly string[]): TranscriptFile[] {
  const out: TranscriptFile[] = [];
  for (const path of paths) {
    const session = SESSION.exec(path);
    if (session) {
      out.push({ path, id: session[1]!, group: groupOf(session[2]!) });
      continue;
    }
    const sub = SUBAGENT.exec(path);
    if (sub) out.push({ path, id: `${sub[1]!}/${sub[2]!}`, group: groupOf(sub[1]!) });
  }
  return out;
}

/** The parent session id a sub-agent's file sits under; undefined for a session's own file. */
export function parentFolderOf(path: string): string | undefined {
  return SESSION.test(path) ? undefined : SUBAGENT.exec(path)?.[1];
}
