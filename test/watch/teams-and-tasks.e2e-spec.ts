import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type SourceLine, claudeCodeAdapter } from '@graph-history/adapters';
import { WatchRunner } from '@graph-history/cli/watch/watch-runner';
import { LiveStack, watchGraphKey } from './support/live-stack';
import {
  ANSWER,
  LEAD,
  REPORT,
  TEAM,
  TEAMS_DIR,
  joinedAt,
  leadTranscript,
  mate,
  teamFileLines,
} from './support/team-scenario';
import { assignedTasks } from './support/task-lines';
import { TranscriptBuilder } from './support/transcript-builder';

interface ApiMessage {
  direction: string;
  from_id: string;
  to_id: string;
  created: number;
  text: string;
}
interface ApiTask {
  id: string;
  status: string;
  owner?: string | null;
  blocked_by?: string[];
}

/**
 * `watch` reads agent teams (REAL team files beside a HAND-MADE lead transcript, see
 * support/team-scenario.ts) and TaskUpdate's owner and blockers, read back through the read API.
 */
describe('watch: agent teams and task assignments, read back through the API', () => {
  const suite = LiveStack.forSuite('watch-teams');
  const log = (warnings: string[]) => ({
    info: () => undefined,
    warn: (m: string) => void warnings.push(m),
  });

  const writeLines = (root: string, project: string, lines: readonly SourceLine[]) => {
    const path = join(root, 'projects', project, `${LEAD}.jsonl`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, lines.map((l) => `${l.text}\n`).join(''));
  };

  /** (ref, type, created) of what the adapter makes of the same files: the transcripts' own times. */
  const expectedEvents = (lines: readonly SourceLine[]) =>
    claudeCodeAdapter
      .toEvents(claudeCodeAdapter.initialState(), lines)
      .events.map((e) => `${e.node} ${e.type} ${e.created}`)
      .sort();

  async function readBack(graph: string, count: number) {
    const events = await suite.stack.until('every event to be readable', async () => {
      const all = await suite.stack.events(graph);
      return all.length >= count ? all : undefined;
    });
    const nodes = await suite.stack.nodes(graph);
    const refOf = new Map(nodes.map((n) => [n.id, n.provider_ref]));
    const idOf = new Map(nodes.map((n) => [n.provider_ref, n.id]));
    const lead = await suite.stack.read<{ messages: { data: ApiMessage[] } }>(
      `/graphs/gph_${graph}/nodes/${idOf.get(LEAD)}?expand[]=messages`,
    );
    return { events, nodes, refOf, idOf, messages: lead.messages.data };
  }

  it('--once: each member is one agent under the lead, each message one, all at their own times', async () => {
    const root = join(suite.tmp, 'once');
    const { lines, spawnedAt, answeredAt } = leadTranscript();
    writeLines(root, 'p-once', lines);
    cpSync(TEAMS_DIR, join(root, 'teams'), { recursive: true });
    const warnings: string[] = [];
    const options = suite.stack.watchOptions(root, 'p-once', { once: true });
    const graph = await watchGraphKey(root, 'p-once');
    await new WatchRunner(claudeCodeAdapter, options, log(warnings)).run(
      new AbortController().signal,
    );
    const expected = expectedEvents([...lines, ...teamFileLines()]);
    const { events, nodes, refOf, idOf, messages } = await readBack(graph, expected.length);
    expect(events.map((e) => `${refOf.get(e.node_id)} ${e.type} ${e.created}`).sort()).toEqual(
      expected,
    );
    const agents = nodes.filter((n) => n.kind === 'agent');
    expect(agents.map((n) => [n.provider_ref, n.parent_id, n.created])).toEqual([
      [mate(1), idOf.get(LEAD), spawnedAt],
      [mate(2), idOf.get(LEAD), joinedAt('doc-writer-2')],
      [mate(3), idOf.get(LEAD), joinedAt('doc-writer-3')],
    ]);
    expect(messages.map((m) => [m.direction, refOf.get(m.from_id), m.created, m.text])).toEqual([
      ['received', mate(1), Date.parse(REPORT.timestamp), REPORT.text],
      ['sent', LEAD, answeredAt, ANSWER.text],
    ]);
    expect(warnings).toEqual([]);
  }, 120_000);

  it('live: inbox messages written while watching become messages within the window', async () => {
    const root = join(suite.tmp, 'live');
    const { lines } = leadTranscript();
    writeLines(root, 'p-live', lines.slice(0, 4)); // up to doc-writer-1's spawn
    const team = join(root, 'teams', TEAM);
    mkdirSync(team, { recursive: true });
    cpSync(join(TEAMS_DIR, TEAM, 'config.json'), join(team, 'config.json'));
    const warnings: string[] = [];
    const controller = new AbortController();
    const options = suite.stack.watchOptions(root, 'p-live', { windowMs: 200, pollMs: 100 });
    const graph = await watchGraphKey(root, 'p-live');
    const running = new WatchRunner(claudeCodeAdapter, options, log(warnings)).run(
      controller.signal,
    );
    try {
      await suite.stack.until('the three teammates', async () => {
        const agents = (await suite.stack.nodes(graph)).filter((n) => n.kind === 'agent');
        return agents.length === 3 ? agents : undefined;
      });
      cpSync(join(TEAMS_DIR, TEAM, 'inboxes'), join(team, 'inboxes'), { recursive: true });
      const { messages, refOf } = await suite.stack.until('both inbox messages', async () => {
        const read = await readBack(graph, 0);
        return read.messages.length === 2 ? read : undefined;
      });
      expect(messages.map((m) => [refOf.get(m.from_id), refOf.get(m.to_id), m.created])).toEqual([
        [mate(1), LEAD, Date.parse(REPORT.timestamp)],
        [LEAD, mate(1), Date.parse(ANSWER.timestamp)],
      ]);
    } finally {
      controller.abort();
    }
    expect((await running).get(graph)).toMatchObject({ duplicates: 0, skipped: 0 });
    expect(warnings).toEqual([]);
  }, 120_000);

  it('TaskUpdate owner and blockers reach the tasks expansion; tasks without them keep the old shape', async () => {
    const root = join(suite.tmp, 'tasks');
    const b = new TranscriptBuilder(LEAD, '2.1.70'); // HAND-MADE lines
    writeLines(root, 'p-tasks', assignedTasks(b));
    const options = suite.stack.watchOptions(root, 'p-tasks', { once: true });
    const graph = await watchGraphKey(root, 'p-tasks');
    await new WatchRunner(claudeCodeAdapter, options, log([])).run(new AbortController().signal);
    const tasks = await suite.stack.until('the last task update', async () => {
      const [session] = await suite.stack.nodes(graph);
      if (!session) return undefined;
      const read = await suite.stack.read<{ tasks: { data: ApiTask[] } }>(
        `/graphs/gph_${graph}/nodes/${session.id}?expand[]=tasks`,
      );
      return read.tasks.data[0]?.status === 'in_progress' ? read.tasks.data : undefined;
    });
    expect(tasks.map(({ id, owner, blocked_by }) => ({ id, owner, blocked_by }))).toEqual([
      { id: '1', owner: 'parser', blocked_by: [] },
      { id: '2', owner: 'tester', blocked_by: ['1'] },
      { id: '3', owner: undefined, blocked_by: undefined },
    ]);
    expect(Object.keys(tasks[2]!)).toEqual([
      'object',
      'id',
      'content',
      'status',
      'active_form',
      'created',
      'updated',
    ]);
  }, 120_000);

  it('refuses a blocked_by that is not a list of ids in the contract’s envelope', async () => {
    const res = await fetch(`${suite.stack.ingestor.baseUrl}/ingest/v1/graphs/p-bad/events`, {
      method: 'POST',
      headers: { authorization: suite.stack.key.auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        events: [
          {
            key: 's',
            type: 'session.started',
            created: 1,
            node: 'S',
            source: { provider: 'x', provider_version: '1', adapter: 'x/1' },
            payload: {},
          },
          {
            key: 't',
            type: 'tasks.updated',
            created: 2,
            node: 'S',
            source: { provider: 'x', provider_version: '1', adapter: 'x/1' },
            payload: { tasks: [{ content: 'a', status: 'pending', blocked_by: '1' }] },
          },
        ],
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'events[1].payload.tasks[0].blocked_by',
      },
    });
  });
});
