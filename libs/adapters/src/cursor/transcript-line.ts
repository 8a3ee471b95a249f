import type { SourceLine, TimedLine } from '../adapter';
import { type Json, isObject, parseJsonLine, str } from '../json';

/** One line of a Cursor transcript: a message `{role, message: {content}}`, or a turn's end. */
export interface TranscriptLine extends TimedLine {
  fileId: string;
  path: string;
  lineNo: number;
  role?: 'user' | 'assistant';
  /** Content blocks (Anthropic style: `text`, `tool_use`, `tool_result`). */
  blocks: Json[];
  /** `{type: "turn_ended", status}`: the status. */
  turnEnded?: string;
}

export type ParsedTranscriptLine =
  { ok: true; line: Omit<TranscriptLine, 'ts'> } | { ok: 'blank' } | { ok: false; message: string };

function blocksOf(message: unknown): Json[] {
  if (!isObject(message)) return [];
  const content = message['content'];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

export function parseTranscriptLine(source: SourceLine): ParsedTranscriptLine {
  const value = parseJsonLine(source.text);
  if (value === 'blank') return { ok: 'blank' };
  if (value === undefined) return { ok: false, message: 'not a JSON object; skipped' };
  const base = { fileId: source.file.id, path: source.file.path, lineNo: source.lineNo };
  if (value['type'] === 'turn_ended') {
    return {
      ok: true,
      line: { ...base, blocks: [], turnEnded: str(value['status']) ?? 'completed' },
    };
  }
  const role = value['role'];
  if (role !== 'user' && role !== 'assistant') {
    return { ok: false, message: 'not a Cursor transcript line; skipped' };
  }
  return { ok: true, line: { ...base, role, blocks: blocksOf(value['message']) } };
}

/** The text blocks of a line, joined. */
export const textOf = (blocks: readonly Json[]): string =>
  blocks
    .filter((b) => b['type'] === 'text' && typeof b['text'] === 'string')
    .map((b) => b['text'] as string)
    .join('\n');

/** A user line's own words: inside `<user_query>` when Cursor wraps them so. */
export function userText(blocks: readonly Json[]): string {
  const text = textOf(blocks);
  const query = /<user_query>([\s\S]*?)(?:<\/user_query>|$)/.exec(text);
  return (query ? query[1]! : text).trim();
}
