import { open } from 'node:fs/promises';

/** Where the next unread line of a file starts. */
export interface FilePosition {
  offset: number;
  /** Lines consumed so far (the next line's number is lineNo + 1). */
  lineNo: number;
}

export interface ReadLine {
  lineNo: number;
  text: string;
  /** Where the line after this one starts. */
  end: FilePosition;
}

export interface ReadResult {
  lines: ReadLine[];
  next: FilePosition;
  /** Lines skipped because they exceed the line size limit. */
  oversized: Array<{ lineNo: number; bytes: number }>;
  /** The file is shorter than the saved offset (replaced or truncated): read it again from 0. */
  shrunk: boolean;
  /** Stopped at the byte budget with more complete lines left to read. */
  more: boolean;
}

export interface ReadLimits {
  /** Bytes of complete lines to return per call (a longer single line is still returned whole). */
  budgetBytes: number;
  /** Lines longer than this are skipped and reported. */
  maxLineBytes: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  budgetBytes: 8 * 1024 * 1024,
  maxLineBytes: 64 * 1024 * 1024,
};

const CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;

function decode(parts: Buffer[], lineNo: number): string {
  let text = Buffer.concat(parts).toString('utf8');
  if (text.endsWith('\r')) text = text.slice(0, -1);
  if (lineNo === 1 && text.startsWith('\uFEFF')) text = text.slice(1);
  return text;
}

/**
 * Reads the complete lines appended after `from`. A last line without its newline is left for a
 * later call (the writer has not finished it), so `next` only ever advances past newlines.
 */
export async function readNewLines(
  path: string,
  from: FilePosition,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): Promise<ReadResult> {
  const result: ReadResult = {
    lines: [],
    next: { ...from },
    oversized: [],
    shrunk: false,
    more: false,
  };
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size < from.offset) return { ...result, shrunk: true };
    let pos = from.offset;
    let parts: Buffer[] = [];
    let partBytes = 0;
    const buffer = Buffer.allocUnsafe(CHUNK);
    while (pos < size) {
      if (result.next.offset - from.offset >= limits.budgetBytes) {
        result.more = true;
        break;
      }
      const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, size - pos), pos);
      if (bytesRead === 0) break;
      let start = 0;
      for (
        let i = buffer.indexOf(NEWLINE, 0);
        i !== -1 && i < bytesRead;
        i = buffer.indexOf(NEWLINE, i + 1)
      ) {
        const lineNo = result.next.lineNo + 1;
        const bytes = partBytes + (i - start);
        const end = { offset: pos + i + 1, lineNo };
        if (bytes > limits.maxLineBytes) result.oversized.push({ lineNo, bytes });
        else
          result.lines.push({
            lineNo,
            text: decode([...parts, buffer.subarray(start, i)], lineNo),
            end,
          });
        result.next = end;
        parts = [];
        partBytes = 0;
        start = i + 1;
      }
      const rest = bytesRead - start;
      if (partBytes + rest <= limits.maxLineBytes)
        parts.push(Buffer.from(buffer.subarray(start, bytesRead)));
      else parts = []; // too long to keep: only its length still counts
      partBytes += rest;
      pos += bytesRead;
    }
    return result;
  } finally {
    await handle.close();
  }
}
