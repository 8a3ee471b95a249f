import { createHash } from 'node:crypto';
import { getOwn, setOwn } from '../own-record';
import { cleanText, firstLine } from '../text';
import type { Fact, ParsedLine } from './line';
import type { ClaudeCodeState, TeamMemo } from './state';
import { isProtocol } from './teammate-messages';
import { TEXT_MAX } from './tool-input';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/** Entries of a team file, parsed; `problem` when the file is not the JSON it should be. */
export interface TeamEntries {
  lines: ParsedLine[];
  problem?: string;
}

/** Applied entries remembered per team; files are append-only, so this only bounds a runaway. */
const APPLIED_KEPT = 20_000;

export function teamMemo(state: ClaudeCodeState, team: string): TeamMemo {
  state.teams ??= {};
  let memo = getOwn(state.teams, team);
  if (!memo) {
    memo = { applied: [] };
    setOwn(state.teams, team, memo);
  }
  return memo;
}

/** Marks an entry applied; false when it already was. */
export function firstApplication(memo: TeamMemo, id: string): boolean {
  if (memo.applied.includes(id)) return false;
  memo.applied.push(id);
  if (memo.applied.length > APPLIED_KEPT) memo.applied.shift();
  return true;
}

function parse(text: string): { value?: unknown; problem?: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { problem: `invalid JSON (${(err as Error).message.slice(0, 120)})` };
  }
}

function entryLine(
  fileId: string,
  lineId: string,
  lineNo: number,
  ts: number,
  memo: TeamMemo,
  fact: Fact,
): ParsedLine {
  return {
    fileId,
    lineNo,
    lineId,
    ts,
    version: undefined,
    sessionId: memo.lead,
    cwd: undefined,
    uuid: undefined,
    parentUuid: undefined,
    sidechain: false,
    facts: [fact],
  };
}

/**
 * `config.json` of a team: its lead session (`leadSessionId`) and one entry per member other than
 * the lead, dated by its `joinedAt`. Members already applied are left out.
 */
export function teamConfigEntries(
  state: ClaudeCodeState,
  team: string,
  fileId: string,
  text: string,
): TeamEntries {
  const { value, problem } = parse(text);
  if (problem) return { lines: [], problem };
  if (!isObj(value)) return { lines: [], problem: 'team config is not a JSON object' };
  const memo = teamMemo(state, team);
  memo.lead = str(value['leadSessionId']) ?? memo.lead;
  const lead = str(value['leadAgentId']);
  const members = Array.isArray(value['members']) ? value['members'] : [];
  const lines: ParsedLine[] = [];
  members.forEach((member, i) => {
    if (!isObj(member)) return;
    const name = str(member['name']);
    if (!name || name === 'team-lead') return;
    const agentId = cleanText(str(member['agentId']) ?? `${name}@${team}`, 200);
    const joined = member['joinedAt'] ?? value['createdAt'];
    if (agentId === lead || typeof joined !== 'number' || !Number.isFinite(joined)) return;
    const id = `member:${agentId}`;
    if (memo.applied.includes(id)) return;
    const prompt = str(member['prompt']);
    const cwd = str(member['cwd']);
    lines.push(
      entryLine(fileId, id, i + 1, joined, memo, {
        kind: 'teammate_joined',
        name: cleanText(name, 200),
        agentId,
        agentType: cleanText(str(member['agentType']) ?? 'teammate', 200),
        purpose: (prompt && firstLine(prompt, TEXT_MAX)) ?? cleanText(name, TEXT_MAX),
        ...(cwd ? { cwd: cleanText(cwd, TEXT_MAX) } : {}),
      }),
    );
  });
  return { lines };
}

/**
 * `inboxes/<name>.json`: the messages teammate `name` received, dated by their `timestamp`.
 * Protocol payloads (idle notices, shutdown handshakes, task assignments) are not messages.
 * An entry's id is a hash of sender, time and text: the file is rewritten whole as messages are
 * read, so entries already applied are recognised and left out.
 */
export function inboxEntries(
  state: ClaudeCodeState,
  team: string,
  name: string,
  fileId: string,
  text: string,
): TeamEntries {
  const { value, problem } = parse(text);
  if (problem) return { lines: [], problem };
  if (!Array.isArray(value)) return { lines: [], problem: 'inbox is not a JSON array' };
  const memo = teamMemo(state, team);
  const lines: ParsedLine[] = [];
  value.forEach((entry, i) => {
    if (!isObj(entry)) return;
    const from = str(entry['from']);
    const body = str(entry['text']);
    const timestamp = str(entry['timestamp']);
    const ts = timestamp ? Date.parse(timestamp) : Number.NaN;
    if (!from || !body || Number.isNaN(ts) || isProtocol(body)) return;
    const id = createHash('sha256')
      .update(`${name}\n${from}\n${timestamp}\n${body}`)
      .digest('hex')
      .slice(0, 24);
    if (memo.applied.includes(id)) return;
    lines.push(
      entryLine(fileId, id, i + 1, ts, memo, {
        kind: 'inbox_message',
        from: cleanText(from, 200),
        to: cleanText(name, 200),
        text: cleanText(body, TEXT_MAX),
      }),
    );
  });
  return { lines };
}
