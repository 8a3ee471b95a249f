import type { FileRole } from './files';
import type { Fact, ParsedLine } from './line';
import { assistantFacts, contentText, userFacts } from './message-facts';
import { hasNotification, notificationFacts } from './notification';
import { cleanText } from '../text';
import { TEXT_MAX } from './tool-input';

type Obj = Record<string, unknown>;

export type ParseLineResult =
  { ok: true; line: ParsedLine } | { ok: false; message: string } | { ok: 'blank' };

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** The working directory, storable and bounded like every text the adapter sends. */
const cwdOf = (v: unknown): string | undefined => {
  const cwd = str(v);
  return cwd === undefined ? undefined : cleanText(cwd, TEXT_MAX);
};

function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

function systemFacts(line: Obj): Fact[] {
  const subtype = line['subtype'];
  if (subtype === 'turn_duration' || subtype === 'stop_hook_summary') return [{ kind: 'turn_end' }];
  if (subtype === 'compact_boundary') return [{ kind: 'compacted' }];
  if (subtype === 'api_error') {
    const error = line['error'];
    const message =
      str(line['content']) ??
      (typeof error === 'object' && error !== null ? str((error as Obj)['message']) : str(error)) ??
      'API error';
    return [{ kind: 'api_error', message: message.slice(0, 2_000) }];
  }
  return [];
}

function progressFacts(line: Obj): Fact[] {
  const data = line['data'];
  if (typeof data !== 'object' || data === null) return [];
  const d = data as Obj;
  const toolUseId = str(line['parentToolUseID']);
  if (d['type'] === 'agent_progress') {
    const agentId = str(d['agentId']);
    return toolUseId && agentId ? [{ kind: 'agent_link', toolUseId, agentId }] : [];
  }
  if (d['type'] === 'waiting_for_task' && toolUseId) {
    return [
      {
        kind: 'waiting_for_task',
        toolUseId,
        description: str(d['taskDescription'])?.slice(0, 200),
      },
    ];
  }
  return d['type'] === 'bash_progress' ? [{ kind: 'alive' }] : [];
}

/** Row types Claude Code writes that carry nothing for the graph; other unknown types are counted. */
const QUIET_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'attachment',
  'custom-title',
  'ai-title',
  'agent-name',
  'last-prompt',
  'pr-link',
  'tag',
]);

function factsOf(line: Obj, sidechain: boolean): Fact[] {
  switch (line['type']) {
    case 'user':
      return userFacts(line, {
        sidechain,
        root: line['parentUuid'] === null || line['parentUuid'] === undefined,
      });
    case 'assistant':
      return assistantFacts(line);
    case 'system':
      return systemFacts(line);
    case 'progress':
      return progressFacts(line);
    case 'queue-operation': {
      const text = contentText(line['content']);
      return hasNotification(text) ? notificationFacts(text, true) : [];
    }
    default:
      return [];
  }
}

const KNOWN_TYPES = new Set(['user', 'assistant', 'system', 'progress', 'queue-operation']);

/** Parses one transcript line; never throws. Unknown line types give a line without facts. */
export function parseLine(
  text: string,
  fileId: string,
  lineNo: number,
  role: FileRole,
): ParseLineResult {
  if (text.trim() === '') return { ok: 'blank' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `invalid JSON (${(err as Error).message.slice(0, 120)})` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, message: 'line is not a JSON object' };
  }
  const line = raw as Obj;
  const uuid = str(line['uuid']);
  const promptId = str(line['promptId'])?.slice(0, 100);
  const sidechain = role.role === 'agent' || line['isSidechain'] === true;
  return {
    ok: true,
    line: {
      fileId,
      lineNo,
      lineId: uuid ?? `L${lineNo}`,
      ts: timeOf(line['timestamp']),
      version: str(line['version'])?.slice(0, 200),
      sessionId: str(line['sessionId']),
      cwd: cwdOf(line['cwd']),
      uuid,
      parentUuid: str(line['parentUuid']),
      sidechain,
      facts: factsOf(line, sidechain),
      ...(promptId ? { promptId } : {}),
      ...(KNOWN_TYPES.has(String(line['type'])) || QUIET_TYPES.has(String(line['type']))
        ? {}
        : { unknownType: String(line['type']).slice(0, 60) }),
    },
  };
}
