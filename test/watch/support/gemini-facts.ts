import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SourceLine, geminiAdapter } from '@graph-history/adapters';
import { linesOf, listPaths } from './fixture-lines';

export const GEMINI_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'gemini-cli', 'tmp');
/** Chats written by gemini-cli's own recorder (@google/gemini-cli-core), see their README. */
export const GEMINI_RECORDED_FIXTURES = join(
  __dirname,
  '..',
  '..',
  'fixtures',
  'gemini-cli-recorded',
  'tmp',
);

type Json = Record<string, unknown>;

/** What one chat file's raw records say, read here without the adapter. */
export interface ChatFacts {
  id: string;
  /** Folder of the project under `tmp/`. */
  project: string;
  /** Path relative to the project folder. */
  file: string;
  kind: 'main' | 'subagent';
  /** The session folder a sub-agent's file sits in. */
  sessionId: string;
  startTs: number;
  /** Every time the file's records carry (messages, tool calls, metadata updates). */
  timestamps: Set<number>;
  /** The call that ran this sub-agent, from any chat's tool calls naming it (`agentId`). */
  calledBy?: { chat: string; status: string; terminateReason?: string; agentName: string };
  records: Json[];
}

function timesOf(record: Json): number[] {
  const out: number[] = [];
  const add = (v: unknown) => typeof v === 'string' && out.push(Date.parse(v));
  add(record['startTime']);
  add(record['timestamp']);
  const set = record['$set'] as Json | undefined;
  if (set) add(set['lastUpdated']);
  for (const call of (record['toolCalls'] as Json[] | undefined) ?? []) add(call['timestamp']);
  return out;
}

export function geminiFacts(root = GEMINI_FIXTURES): Map<string, ChatFacts> {
  const out = new Map<string, ChatFacts>();
  for (const path of listPaths(root).filter((p) => p.endsWith('.jsonl'))) {
    const [project, ...rest] = path.split('/');
    const records = readFileSync(join(root, path), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Json);
    const header = records[0]!;
    const file = rest.join('/');
    const kind = header['kind'] === 'subagent' ? 'subagent' : 'main';
    out.set(header['sessionId'] as string, {
      id: header['sessionId'] as string,
      project: project!,
      file,
      kind,
      sessionId: kind === 'main' ? (header['sessionId'] as string) : rest[1]!,
      startTs: Date.parse(header['startTime'] as string),
      timestamps: new Set(records.flatMap(timesOf)),
      records,
    });
  }
  for (const chat of out.values()) {
    for (const record of chat.records) {
      for (const call of (record['toolCalls'] as Json[] | undefined) ?? []) {
        const agent = out.get(call['agentId'] as string);
        if (!agent) continue;
        const display = (call['resultDisplay'] as Json | undefined) ?? {};
        agent.calledBy = {
          chat: chat.id,
          status: call['status'] as string,
          agentName: (call['args'] as Json)['agent_name'] as string,
          ...(typeof display['terminateReason'] === 'string'
            ? { terminateReason: display['terminateReason'] }
            : {}),
        };
      }
    }
  }
  return out;
}

/** Every line of the chats of one project folder, as the watcher hands them to the adapter. */
export function chatLines(project: string, root = GEMINI_FIXTURES): SourceLine[] {
  const dir = join(root, project);
  return geminiAdapter
    .detect(listPaths(dir))
    .flatMap((file) => linesOf(file, readFileSync(join(dir, file.path), 'utf8')));
}

/** The files of one project folder, each with its lines. */
export function chatFiles(project: string, root = GEMINI_FIXTURES): SourceLine[][] {
  const byFile = new Map<string, SourceLine[]>();
  for (const line of chatLines(project, root)) {
    byFile.set(line.file.id, [...(byFile.get(line.file.id) ?? []), line]);
  }
  return [...byFile.values()];
}
