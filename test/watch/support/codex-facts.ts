import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { SourceLine, TranscriptFile } from '@graph-history/adapters';

const fixtures = (name: string): string =>
  join(__dirname, '..', '..', 'fixtures', name, 'sessions');

/** Rollouts hand-made after Codex's types (test/fixtures/codex). */
export const CODEX_FIXTURES = fixtures('codex');

/** Every set of rollouts the Codex tests read, each with its README beside it. */
export const CODEX_SETS = [
  { name: 'hand-made after Codex’s types', root: CODEX_FIXTURES },
  { name: 'written by codex 0.171.0 itself', root: fixtures('codex-recorded') },
  { name: 'real (madshn/localpush, redacted)', root: fixtures('codex-real') },
];

/** What one rollout's raw lines say, read here without the adapter. */
export interface ThreadFacts {
  id: string;
  file: string;
  cwd: string;
  version: string;
  metaTs: number;
  parentId?: string;
  depth?: number;
  role?: string;
  forked: boolean;
  /** Every line's own time. */
  timestamps: Set<number>;
  /** Each line's time, in file order. */
  lineTs: number[];
  /**
   * Line number of the end of a fork's copied history, if any: the line before the one numbered
   * `subagent_history_start_ordinal`, else the spawn call's output that closes the copy.
   */
  copyEnd?: number;
  /** The copy's end is that spawn call's output (older versions). */
  copyEndsWithMarker: boolean;
  /** The state the thread's last turn left it in. */
  state: 'working' | 'idle' | 'completed' | 'canceled';
  lines: Array<{ type: string; payload: Record<string, unknown> }>;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

export function codexFacts(root = CODEX_FIXTURES): Map<string, ThreadFacts> {
  const out = new Map<string, ThreadFacts>();
  for (const path of walk(root).filter((p) => p.endsWith('.jsonl'))) {
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(
        (l) =>
          JSON.parse(l) as { timestamp: string; type: string; payload: Record<string, unknown> },
      );
    const meta = lines[0]!.payload;
    const spawn = (meta['source'] as { subagent?: { thread_spawn?: Record<string, unknown> } })
      ?.subagent?.thread_spawn;
    const marker = lines.findIndex(
      (l) =>
        l.payload['type'] === 'function_call_output' &&
        String(l.payload['output']).includes('forked from your parent agent'),
    );
    const ownFrom = meta['subagent_history_start_ordinal'];
    const copyEnd =
      typeof ownFrom === 'number'
        ? lines.findIndex((l) => (l as { ordinal?: number }).ordinal === ownFrom) - 1
        : marker;
    out.set(meta['id'] as string, {
      id: meta['id'] as string,
      file: relative(root, path),
      cwd: meta['cwd'] as string,
      version: meta['cli_version'] as string,
      metaTs: Date.parse(lines[0]!.timestamp),
      ...(spawn
        ? {
            parentId: spawn['parent_thread_id'] as string,
            depth: spawn['depth'] as number,
            ...(spawn['agent_role'] ? { role: spawn['agent_role'] as string } : {}),
          }
        : {}),
      forked: typeof meta['forked_from_id'] === 'string',
      timestamps: new Set(lines.map((l) => Date.parse(l.timestamp))),
      lineTs: lines.map((l) => Date.parse(l.timestamp)),
      ...(copyEnd >= 0 ? { copyEnd: copyEnd + 1 } : {}),
      copyEndsWithMarker: marker >= 0,
      state: lastState(lines.slice(copyEnd + 1), spawn !== undefined),
      lines: lines.map(({ type, payload }) => ({ type, payload })),
    });
  }
  return out;
}

const TURN_MARKS = /^(task_started|user_message|item_completed|task_complete|turn_aborted)$/;

/** Where a thread's own lines leave it: a turn's end (or start) as the last of them says. */
function lastState(
  lines: Array<{ type: string; payload: Record<string, unknown> }>,
  agent: boolean,
): ThreadFacts['state'] {
  const last = [...lines]
    .reverse()
    .find(
      (l) =>
        l.type === 'event_msg' &&
        TURN_MARKS.test(String(l.payload['type'])) &&
        (l.payload['type'] !== 'item_completed' ||
          (l.payload['item'] as { type?: string })?.type === 'UserMessage'),
    );
  const type = String(last?.payload['type']);
  if (type === 'task_complete') return agent ? 'completed' : 'idle';
  if (type === 'turn_aborted') return agent ? 'canceled' : 'idle';
  return 'working';
}

/** The session a thread belongs to, from the raw parent links. */
export function rootOf(facts: Map<string, ThreadFacts>, id: string): string {
  let at = facts.get(id)!;
  while (at.parentId !== undefined && facts.has(at.parentId)) at = facts.get(at.parentId)!;
  return at.id;
}

/** Every line of the rollouts under `root`, as the watcher hands them to the adapter. */
export function rolloutFiles(
  root = CODEX_FIXTURES,
): Array<{ file: TranscriptFile; lines: SourceLine[] }> {
  return walk(root)
    .filter((p) => p.endsWith('.jsonl'))
    .sort()
    .map((path) => {
      const rel = relative(root, path);
      const id = /([0-9a-f-]{36})\.jsonl$/.exec(rel)![1]!;
      const file: TranscriptFile = { path: rel, id, group: id };
      const lines = readFileSync(path, 'utf8')
        .split('\n')
        .filter((t) => t !== '')
        .map((text, i) => ({ file, lineNo: i + 1, text }));
      return { file, lines };
    });
}
