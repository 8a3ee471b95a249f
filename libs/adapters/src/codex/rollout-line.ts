import type { TimedLine } from '../adapter';

type Json = Record<string, unknown>;

/** One parsed rollout line: `{timestamp, type, payload}` (RolloutLine of codex-rs/protocol). */
export interface RolloutLine extends TimedLine {
  /** The file's thread id (from its name): it prefixes the line's keys. */
  fileId: string;
  path: string;
  lineNo: number;
  /** `session_meta`, `turn_context`, `response_item`, `event_msg`, `compacted`, … */
  type: string;
  payload: Json;
  /** The line's position in its thread's history (`ordinal`, newer versions). */
  ordinal?: number;
}

export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.length > 0 ? v : undefined;

export type ParsedRollout =
  { ok: true; line: RolloutLine } | { ok: 'blank' } | { ok: false; message: string };

export function parseRolloutLine(
  text: string,
  fileId: string,
  path: string,
  lineNo: number,
): ParsedRollout {
  if (text.trim() === '') return { ok: 'blank' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'not JSON; skipped' };
  }
  if (!isObject(value) || typeof value['type'] !== 'string' || !isObject(value['payload'])) {
    return { ok: false, message: 'not a rollout line ({timestamp, type, payload}); skipped' };
  }
  const time = typeof value['timestamp'] === 'string' ? Date.parse(value['timestamp']) : NaN;
  const ordinal = value['ordinal'];
  return {
    ok: true,
    line: {
      ts: Number.isFinite(time) && time >= 0 ? time : undefined,
      fileId,
      path,
      lineNo,
      type: value['type'],
      payload: value['payload'],
      ...(typeof ordinal === 'number' && Number.isInteger(ordinal) ? { ordinal } : {}),
    },
  };
}

/** A function call's `arguments` (a JSON string in the Responses API), as an object. */
export function callArguments(payload: Json): Json {
  const args = payload['arguments'];
  if (isObject(args)) return args;
  if (typeof args !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** A function call output's text (`output` is a string, or `{content}` in newer versions). */
export function outputText(payload: Json): string {
  const output = payload['output'];
  if (typeof output === 'string') return output;
  if (isObject(output) && typeof output['content'] === 'string') return output['content'];
  return '';
}
