import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listPaths } from './fixture-lines';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface SpawnCall {
  id: string;
  subagentType: string;
  description: string;
  ts: number;
  /** The call's result: its time, whether it failed, the agent id (2.x). */
  result?: { ts: number; isError: boolean; agentId?: string };
}

/** What a reader of the raw transcript sees, computed independently of the adapter. */
export interface TranscriptFacts {
  firstTs: number;
  timestamps: Set<number>;
  spawns: SpawnCall[];
  lastTodos: Array<{ status: string }> | undefined;
}

function parsedLines(path: string): Obj[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Obj);
}

export function transcriptFacts(dir: string, mainFile: string): TranscriptFacts {
  const timestamps = new Set<number>();
  for (const path of listPaths(dir).filter((p) => p.endsWith('.jsonl'))) {
    for (const line of parsedLines(join(dir, path)))
      if (typeof line.timestamp === 'string') timestamps.add(Date.parse(line.timestamp));
  }
  const main = parsedLines(join(dir, mainFile));
  const spawns = new Map<string, SpawnCall>();
  let lastTodos: TranscriptFacts['lastTodos'];
  for (const line of main) {
    const content = Array.isArray(line.message?.content) ? (line.message.content as Obj[]) : [];
    for (const block of content) {
      if (block.type === 'tool_use' && block.name === 'Task') {
        spawns.set(block.id, {
          id: block.id,
          subagentType: block.input.subagent_type,
          description: block.input.description,
          ts: Date.parse(line.timestamp),
        });
      }
      if (block.type === 'tool_use' && block.name === 'TodoWrite' && !line.isSidechain)
        lastTodos = block.input.todos;
      const spawn = block.type === 'tool_result' ? spawns.get(block.tool_use_id) : undefined;
      if (spawn)
        spawn.result = {
          ts: Date.parse(line.timestamp),
          isError: block.is_error === true,
          agentId: line.toolUseResult?.agentId,
        };
    }
  }
  const firstTs = Math.min(
    ...main.filter((l) => typeof l.timestamp === 'string').map((l) => Date.parse(l.timestamp)),
  );
  return { firstTs, timestamps, spawns: [...spawns.values()], lastTodos };
}
