import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SourceLine, cursorAdapter } from '@graph-history/adapters';
import { linesOf, listPaths } from './fixture-lines';

export const CURSOR_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'cursor', 'projects');

type Json = Record<string, unknown>;

/** What one transcript's raw lines say, read here without the adapter. */
export interface TranscriptFacts {
  id: string;
  /** Path relative to the project's `agent-transcripts` folder. */
  file: string;
  session: string;
  /** The `Task` call whose prompt is this sub-agent's first words. */
  task?: { id: string; agentType: string; background: boolean };
  /** `turn_ended` status of its last turn, if any. */
  ended?: string;
  lines: Json[];
}

const firstWords = (line: Json): string => {
  const content = (line['message'] as { content?: Json[] } | undefined)?.content ?? [];
  return content
    .filter((b) => b['type'] === 'text')
    .map((b) => String(b['text']))
    .join('\n')
    .trim();
};

export function cursorFacts(project = 'home-dev-shop'): Map<string, TranscriptFacts> {
  const dir = join(CURSOR_FIXTURES, project, 'agent-transcripts');
  const out = new Map<string, TranscriptFacts>();
  for (const file of listPaths(dir).filter((p) => p.endsWith('.jsonl'))) {
    const lines = readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Json);
    const parts = file.split('/');
    const id = parts[parts.length - 1]!.replace(/\.jsonl$/, '');
    const ends = lines.filter((l) => l['type'] === 'turn_ended');
    out.set(id, {
      id,
      file,
      session: parts[0]!,
      ...(ends.length ? { ended: String(ends[ends.length - 1]!['status']) } : {}),
      lines,
    });
  }
  const calls = [...out.values()].flatMap((f) =>
    f.lines.flatMap(
      (l) => ((l['message'] as { content?: Json[] } | undefined)?.content ?? []) as Json[],
    ),
  );
  for (const f of out.values()) {
    if (f.id === f.session) continue;
    const call = calls.find(
      (c) => c['name'] === 'Task' && (c['input'] as Json)['prompt'] === firstWords(f.lines[0]!),
    );
    if (!call) continue;
    const input = call['input'] as Json;
    f.task = {
      id: call['id'] as string,
      agentType: input['subagent_type'] as string,
      background: input['run_in_background'] === true,
    };
  }
  return out;
}

/** The lines of one project's transcripts, each file dated as the watcher dates it. */
export function transcriptFiles(
  times: (path: string) => { born: number; modified: number },
  project = 'home-dev-shop',
): SourceLine[][] {
  const dir = join(CURSOR_FIXTURES, project, 'agent-transcripts');
  return cursorAdapter.detect(listPaths(dir)).map((file) =>
    linesOf(file, readFileSync(join(dir, file.path), 'utf8')).map((l) => ({
      ...l,
      fileTimes: times(file.path),
    })),
  );
}
