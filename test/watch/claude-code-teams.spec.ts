import { claudeCodeAdapter } from '@graph-history/adapters';
import { ofType, run } from './support/adapter-run';
import { nodeOf, replay } from './support/graph-replay';
import {
  ANSWER,
  LEAD,
  REPORT,
  TEAM,
  joinedAt,
  leadTranscript,
  mate,
  teamFileLines,
} from './support/team-scenario';
import { TranscriptBuilder } from './support/transcript-builder';

/**
 * Agent team files: REAL `config.json` and inboxes (test/fixtures/claude-code/teams, copied from a
 * public repository) beside a HAND-MADE lead transcript (support/team-scenario.ts).
 */
describe('agent team files', () => {
  it('makes every member an agent of the lead session, once, whichever copy comes first', () => {
    const { lines, spawnedAt } = leadTranscript();
    const { events, problems } = run([...lines, ...teamFileLines()]);
    expect(problems).toEqual([]);
    expect(
      ofType(events, 'agent.spawned').map((e) => [
        e.node,
        e.created,
        e.payload.parent,
        e.payload.link_method,
        e.payload.spawn_call_id,
      ]),
    ).toEqual([
      [mate(1), spawnedAt, LEAD, 'spawn_call_id', 'T1'],
      [mate(2), joinedAt('doc-writer-2'), LEAD, 'explicit', undefined],
      [mate(3), joinedAt('doc-writer-3'), LEAD, 'explicit', undefined],
    ]);
    expect(ofType(events, 'agent.spawned')[1]!.payload).toMatchObject({
      agent_type: 'general-purpose',
      purpose: 'Add module-level doc comments to the following files:',
      background: true,
    });
  });

  it('sends each message once at its first copy’s time; protocol entries are not messages', () => {
    const { lines, answeredAt } = leadTranscript();
    const { events } = run([...lines, ...teamFileLines()]);
    expect(
      ofType(events, 'message.sent').map((e) => [
        e.node,
        e.payload.to,
        e.created,
        e.payload.message_id,
      ]),
    ).toEqual([
      [mate(1), LEAD, Date.parse(REPORT.timestamp), undefined],
      [LEAD, mate(1), answeredAt, 'M1'],
    ]);
    expect(ofType(events, 'message.sent').map((e) => e.payload.text)).toEqual([
      REPORT.text,
      ANSWER.text,
    ]);
  });

  it('adds nothing when the files are read again (rewritten as messages are read)', () => {
    const { lines } = leadTranscript();
    const files = teamFileLines();
    const state = claudeCodeAdapter.initialState();
    const first = claudeCodeAdapter.toEvents(state, [...lines, ...files]);
    const reread = files.map((f) => ({
      ...f,
      text: f.text.replace(/"read": false/g, '"read": true'),
    }));
    expect(reread.map((f) => f.text)).not.toEqual(files.map((f) => f.text));
    expect(claudeCodeAdapter.toEvents(state, reread)).toEqual({ events: [], problems: [] });
    expect(first.events.length).toBeGreaterThan(0);
  });

  it('keeps a teammate made from the config when the lead’s spawn call is read later', () => {
    const { lines } = leadTranscript();
    const b = new TranscriptBuilder(LEAD, '2.1.34', joinedAt('doc-writer-3') + 60_000);
    const late = [
      b.toolUse('T2', 'Task', {
        description: 'Document config',
        prompt: 'Document config.rs',
        subagent_type: 'general-purpose',
        name: 'doc-writer-2',
        team_name: TEAM,
      }),
      b.toolResult('T2', 'Spawned successfully.', {
        toolUseResult: { status: 'teammate_spawned', name: 'doc-writer-2', team_name: TEAM },
      }),
    ];
    const { events, problems } = run([...lines, ...teamFileLines()], late);
    expect(problems).toEqual([]);
    expect(ofType(events, 'agent.spawned').map((e) => e.node)).toEqual([mate(1), mate(2), mate(3)]);
    expect(nodeOf(replay(events), mate(2)).parentNo).toBe(nodeOf(replay(events), LEAD).no);
  });

  it('reports a team file that is not the JSON it should be, and goes on', () => {
    const files = teamFileLines();
    const broken = files.map((f) =>
      f.file.path.endsWith('team-lead.json') ? { ...f, text: '{"from":' } : f,
    );
    const { lines } = leadTranscript();
    const { events, problems } = run([...lines, ...broken]);
    expect(problems).toEqual([
      expect.stringMatching(new RegExp(`^${TEAM}/inboxes/team-lead\\.json:1: invalid JSON \\(`)),
    ]);
    expect(ofType(events, 'message.sent')).toHaveLength(2); // the transcript still has both
  });
});
