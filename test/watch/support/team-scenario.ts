import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SourceLine, claudeCodeAdapter } from '@graph-history/adapters';
import { FIXTURES, listPaths } from './fixture-lines';
import { TranscriptBuilder } from './transcript-builder';

/** The REAL team files of `test/fixtures/claude-code/teams/` (see its README). */
export const TEAMS_DIR = join(FIXTURES, 'teams');
export const TEAM = 'moonlit-chasing-meerkat';
export const LEAD = 'bff9d83d-b855-4345-a44c-cbcc6837d3be';
export const mate = (n: number) => `${LEAD}/doc-writer-${n}@${TEAM}`;

const config = JSON.parse(readFileSync(join(TEAMS_DIR, TEAM, 'config.json'), 'utf8')) as {
  members: Array<{ name: string; prompt?: string; joinedAt: number }>;
};
const inbox = (name: string) =>
  JSON.parse(readFileSync(join(TEAMS_DIR, TEAM, 'inboxes', `${name}.json`), 'utf8')) as Array<{
    text: string;
    timestamp: string;
  }>;

export const joinedAt = (name: string) => config.members.find((m) => m.name === name)!.joinedAt;
/** doc-writer-1's report to the lead, and the lead's answer (real inbox entries). */
export const REPORT = inbox('team-lead')[0]!;
export const ANSWER = inbox('doc-writer-1')[0]!;

/** The team's files as the watcher reads them: each whole, paths relative to the teams folder. */
export function teamFileLines(): SourceLine[] {
  return claudeCodeAdapter
    .detect(listPaths(TEAMS_DIR), 'teams')
    .map((file) => ({ file, lineNo: 1, text: readFileSync(join(TEAMS_DIR, file.path), 'utf8') }));
}

/**
 * The lead's transcript, HAND-MADE (the real one was not published), timed around the real team
 * files: the lead spawns doc-writer-1 just before its `joinedAt`, receives its report as a
 * `<teammate-message>` after the inbox entry, and sends its answer with SendMessage just before the
 * inbox entry. The spawns of doc-writer-2 and -3 are not in it (as when the transcript is flushed
 * late): the config alone makes them agents.
 */
export function leadTranscript(): { lines: SourceLine[]; spawnedAt: number; answeredAt: number } {
  const created = Date.parse('2026-02-07T15:34:25.137Z');
  const b = new TranscriptBuilder(LEAD, '2.1.34', created - 6_000);
  const at = (time: number) => b.tick(time - b.now - 1_000);
  const lines: SourceLine[] = [b.prompt('Document every Hive module with a team')];
  at(created - 100);
  lines.push(b.toolUse('TC1', 'TeamCreate', { team_name: TEAM, description: 'Docs' }));
  const spawnedAt = at(joinedAt('doc-writer-1') - 500) + 1_000;
  lines.push(
    b.toolUse('T1', 'Task', {
      description: 'Document types and events',
      prompt: config.members[1]!.prompt,
      subagent_type: 'general-purpose',
      name: 'doc-writer-1',
      team_name: TEAM,
    }),
    b.toolResult('T1', 'Spawned successfully.', {
      toolUseResult: {
        status: 'teammate_spawned',
        agent_id: `doc-writer-1@${TEAM}`,
        name: 'doc-writer-1',
        team_name: TEAM,
      },
    }),
  );
  at(Date.parse(REPORT.timestamp) + 400);
  lines.push(
    b.prompt(
      `<teammate-message teammate_id="doc-writer-1" color="blue" summary="Documentation already complete">\n${REPORT.text}\n</teammate-message>`,
    ),
  );
  const answeredAt = at(Date.parse(ANSWER.timestamp) - 1_400) + 1_000;
  lines.push(
    b.toolUse('M1', 'SendMessage', {
      type: 'message',
      recipient: 'doc-writer-1',
      content: ANSWER.text,
      summary: 'Good - those are already done',
    }),
  );
  return { lines, spawnedAt, answeredAt };
}
