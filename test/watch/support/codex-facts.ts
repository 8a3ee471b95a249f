import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { SourceLine, TranscriptFile } from '@graph-history/adapters';

export const CODEX_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'codex', 'sessions');

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
  /** Line number of the end of a fork's copied history (the spawn call's output), if any. */
  copyEnd?: number;
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
    const copyEnd = lines.findIndex(
      (l) =>
        l.payload['type'] === 'function_call_output' &&
        String(l.payload['output']).includes('forked from your parent agent'),
    );
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
      ...(copyEnd >= 0 ? { copyEnd: copyEnd + 1 } : {}),
      lines: lines.map(({ type, payload }) => ({ type, payload })),
    });
  }
  return out;
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
