import { open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { rolloutThreadId } from '@graph-history/adapters';
import { listRelativeFiles } from './file-listing';
import { claudeProjectName } from './projects';

/** `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-….jsonl` nests four levels below the sessions folder. */
export const CODEX_SESSIONS_DEPTH = 4;

/** A session_meta line is far below this; a first line longer than it is not read for grouping. */
const HEAD_BYTES = 256 * 1024;

/** Where Codex keeps rollouts: `$CODEX_HOME/sessions`, CODEX_HOME defaulting to `~/.codex`. */
export function defaultCodexSessionsDir(env: NodeJS.ProcessEnv): string {
  return join(env['CODEX_HOME'] || join(env['HOME'] || homedir(), '.codex'), 'sessions');
}

/** What a rollout's first line (its session_meta) says for grouping. */
interface RolloutHead {
  cwd?: string;
  parentId?: string;
}

/** One project's Codex sessions: the threads (sessions and their sub-agents) run in one cwd. */
export interface CodexProject {
  /** Claude Code's folder name for the same working directory, so both share one graph key. */
  name: string;
  cwd: string;
  threads: string[];
  /** Top-level sessions among them. */
  sessions: number;
}

async function firstLine(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    const end = buffer.subarray(0, bytesRead).indexOf(10);
    return end < 0 ? undefined : buffer.subarray(0, end).toString('utf8');
  } finally {
    await handle.close();
  }
}

function parseHead(line: string): RolloutHead | null {
  try {
    const value = JSON.parse(line) as { type?: unknown; payload?: Record<string, unknown> };
    if (value.type !== 'session_meta' || typeof value.payload !== 'object') return null;
    const p = value.payload ?? {};
    const source = p['source'] as { subagent?: { thread_spawn?: Record<string, unknown> } } | null;
    const parent = source?.subagent?.thread_spawn?.['parent_thread_id'];
    return {
      ...(typeof p['cwd'] === 'string' ? { cwd: p['cwd'] } : {}),
      ...(typeof parent === 'string' ? { parentId: parent.toLowerCase() } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * Groups Codex rollouts by project: a session by the cwd of its session_meta, a sub-agent with
 * the session it descends from (whatever its own cwd). First lines are read once and remembered;
 * a rollout whose first line is not complete yet is looked at again next time.
 */
export class CodexProjects {
  private readonly heads = new Map<string, RolloutHead | null>();

  constructor(readonly dir: string) {}

  async find(onlyRoot?: string): Promise<CodexProject[]> {
    const paths = await listRelativeFiles(this.dir, CODEX_SESSIONS_DEPTH);
    const byThread = new Map<string, RolloutHead>();
    for (const path of paths) {
      const id = rolloutThreadId(path);
      if (id === undefined) continue;
      if (!this.heads.has(id)) {
        const line = await firstLine(join(this.dir, path));
        if (line !== undefined) this.heads.set(id, parseHead(line));
      }
      const head = this.heads.get(id);
      if (head) byThread.set(id, head);
    }
    const projects = new Map<string, CodexProject>();
    for (const [id, head] of byThread) {
      const root = rootOf(id, byThread);
      if (onlyRoot !== undefined && root !== onlyRoot) continue;
      const cwd = byThread.get(root)?.cwd ?? head.cwd ?? '/';
      const name = claudeProjectName(cwd);
      const project = projects.get(name) ?? { name, cwd, threads: [], sessions: 0 };
      project.threads.push(id);
      if (head.parentId === undefined) project.sessions += 1;
      projects.set(name, project);
    }
    return [...projects.values()];
  }
}

/** The top-level session a thread descends from (itself when its parent is not known). */
function rootOf(id: string, heads: ReadonlyMap<string, RolloutHead>): string {
  const seen = new Set<string>();
  let at = id;
  for (;;) {
    const parent = heads.get(at)?.parentId;
    if (parent === undefined || !heads.has(parent) || seen.has(parent)) return at;
    seen.add(at);
    at = parent;
  }
}

/** What `--dir` names for Codex: the sessions folder, or one rollout (that session only). */
export function codexTarget(path: string): { dir: string; onlyRoot?: string } {
  const id = rolloutThreadId(path);
  return id !== undefined && path.endsWith('.jsonl')
    ? { dir: dirname(path), onlyRoot: id }
    : { dir: path };
}
