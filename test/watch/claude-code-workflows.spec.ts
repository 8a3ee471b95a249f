import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SourceLine, claudeCodeAdapter } from '@graph-history/adapters';
import type { WatchEvent } from '@graph-history/domain';
import { FIXTURES, linesOf, listPaths } from './support/fixture-lines';
import { convertChunks, expectAnyArrivalValid } from './support/chunked-convert';
import { expectValidStream, nodeOf, replay } from './support/graph-replay';

/** Claude Code workflow runs (hand-made fixture: see test/fixtures/claude-code/workflows/README.md). */
const DIR = join(FIXTURES, 'workflows');
const RECORD = /^[^/]+\/workflows\/wf_[^/]+\.json$/;
const files = claudeCodeAdapter.detect(listPaths(DIR)).map((file) => {
  const text = readFileSync(join(DIR, file.path), 'utf8');
  const lines: SourceLine[] = file.whole ? [{ file, lineNo: 1, text }] : linesOf(file, text);
  return { file, lines };
});

const convert = (...chunks: SourceLine[][]): WatchEvent[] =>
  convertChunks(claudeCodeAdapter, chunks);

// Expected values, read from the raw files.
const sessionId = files.find((f) => !f.file.path.includes('/'))!.file.id;
const record = JSON.parse(
  readFileSync(join(DIR, files.find((f) => RECORD.test(f.file.path))!.file.path), 'utf8'),
) as {
  runId: string;
  workflowProgress: Array<{
    type: string;
    agentId?: string;
    state?: string;
    startedAt?: number;
    durationMs?: number;
    error?: string;
  }>;
};
const agents = record.workflowProgress.filter((e) => e.type === 'workflow_agent');
const labelOf = (agentId: string): string =>
  (
    JSON.parse(
      readFileSync(
        join(DIR, sessionId, 'subagents', 'workflows', record.runId, `agent-${agentId}.meta.json`),
        'utf8',
      ),
    ) as { label: string }
  ).label;

describe('Claude Code workflow runs', () => {
  it('detects the run record, its agents and their meta files, not its journal', () => {
    expect(files.map((f) => f.file.path).sort()).toEqual(
      listPaths(DIR)
        .filter((p) => p.endsWith('.jsonl') || p.endsWith('.json'))
        .filter((p) => !p.endsWith('journal.jsonl') && p !== 'README.md')
        .sort(),
    );
  });

  it('makes each agent of the run an agent of the session that ran it, ended as the record says', () => {
    const events = convert(files.flatMap((f) => f.lines));
    expectValidStream(events);
    const graph = replay(events);
    expect(agents.length).toBe(2);
    for (const a of agents) {
      const node = nodeOf(graph, `${sessionId}/${a.agentId}`);
      expect(node).toMatchObject({
        kind: 'agent',
        depth: 1,
        agentType: 'workflow',
        purpose: labelOf(a.agentId!),
        background: true,
        linkMethod: 'explicit',
        state: a.state === 'done' ? 'completed' : 'failed',
        ended: a.startedAt! + a.durationMs!,
      });
      expect(graph.nodes.get(node.parentNo!)!.ref).toBe(sessionId);
      if (a.error) expect(node.summary).toBe(a.error);
    }
    // The session does not wait on the run's agents.
    expect(nodeOf(graph, sessionId).blocked).toBeNull();
  });

  it('ends nothing twice when the record is read again (it is rewritten whole)', () => {
    const state = claudeCodeAdapter.initialState();
    const all = files.flatMap((f) => f.lines);
    const first = claudeCodeAdapter.toEvents(state, all).events;
    const recordLines = files.find((f) => f.file.whole && RECORD.test(f.file.path))!;
    expect(claudeCodeAdapter.toEvents(state, recordLines.lines).events).toEqual([]);
    expect(first.filter((e) => e.type === 'ended').map((e) => e.key)).toEqual(
      agents.map((a) => `${sessionId}/${a.agentId}:ended`),
    );
  });

  it('property: any prefix of each file, arriving in any order, gives a valid stream, the same on re-read', () => {
    expectAnyArrivalValid(
      files.map((f) => f.lines),
      convert,
      80,
    );
  });
});
