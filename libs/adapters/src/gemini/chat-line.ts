import type { TimedLine } from '../adapter';
import { type Json, isObject, parseJsonLine, str, timeOf } from '../json';

/** One record of a chat file (ChatRecordingService of gemini-cli, packages/core). */
export type ChatRecord =
  /** The first line: `{sessionId, projectHash, startTime, lastUpdated, kind, directories}`. */
  | { kind: 'header'; value: Json }
  /** A MessageRecord `{id, timestamp, type, content, toolCalls?}`; re-written whole when it grows. */
  | { kind: 'message'; value: Json }
  /** `{$set: {...}}`: metadata updates, or a checkpoint of every message (`$set.messages`). */
  | { kind: 'set'; value: Json }
  /** `{$rewindTo: <message id>}`: the conversation was rewound to before that message. */
  | { kind: 'rewind'; value: Json };

export interface ChatLine extends TimedLine {
  fileId: string;
  path: string;
  lineNo: number;
  record: ChatRecord;
}

function classify(value: Json): ChatRecord | undefined {
  if (typeof value['$rewindTo'] === 'string') return { kind: 'rewind', value };
  if (isObject(value['$set'])) return { kind: 'set', value: value['$set'] };
  if (typeof value['id'] === 'string') return { kind: 'message', value };
  if (typeof value['sessionId'] === 'string') return { kind: 'header', value };
  return undefined;
}

/** A message's own time: when it was written, or when the last of its tool calls completed. */
export function messageTime(message: Json): number | undefined {
  let ts = timeOf(message['timestamp']);
  const calls = message['toolCalls'];
  if (Array.isArray(calls)) {
    for (const call of calls) {
      const at = isObject(call) ? timeOf(call['timestamp']) : undefined;
      if (at !== undefined && (ts === undefined || at > ts)) ts = at;
    }
  }
  return ts;
}

function recordTime(record: ChatRecord): number | undefined {
  switch (record.kind) {
    case 'header':
      return timeOf(record.value['startTime']);
    case 'message':
      return messageTime(record.value);
    case 'set':
      return timeOf(record.value['lastUpdated']);
    case 'rewind':
      return undefined;
  }
}

export type ParsedChatLine =
  { ok: true; line: ChatLine } | { ok: 'blank' } | { ok: false; message: string };

export function parseChatLine(
  text: string,
  fileId: string,
  path: string,
  lineNo: number,
): ParsedChatLine {
  const value = parseJsonLine(text);
  if (value === 'blank') return { ok: 'blank' };
  if (value === undefined) return { ok: false, message: 'not a JSON object; skipped' };
  const record = classify(value);
  if (!record) return { ok: false, message: 'not a Gemini CLI chat record; skipped' };
  return { ok: true, line: { ts: recordTime(record), fileId, path, lineNo, record } };
}

/** The text of a PartListUnion: a string, a Part, or Parts (`{text}` parts only). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((p) => (typeof p === 'string' ? p : isObject(p) ? (str(p['text']) ?? '') : ''))
    .filter((t) => t.length > 0)
    .join('\n');
}
