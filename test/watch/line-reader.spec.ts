import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNewLines } from '@graph-history/cli/watch/line-reader';

const START = { offset: 0, lineNo: 0 };

describe('readNewLines', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gh-reader-'));
    file = join(dir, 't.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves a partial last line until its newline is written', async () => {
    writeFileSync(file, '{"a":1}\n{"b":');
    const first = await readNewLines(file, START);
    expect(first.lines).toEqual([{ lineNo: 1, text: '{"a":1}', end: { offset: 8, lineNo: 1 } }]);
    expect(first.next).toEqual({ offset: 8, lineNo: 1 });

    expect((await readNewLines(file, first.next)).lines).toEqual([]);
    appendFileSync(file, '2}\n');
    const second = await readNewLines(file, first.next);
    expect(second.lines).toEqual([{ lineNo: 2, text: '{"b":2}', end: { offset: 16, lineNo: 2 } }]);
    expect(second.next).toEqual({ offset: 16, lineNo: 2 });
  });

  it('decodes multi-byte characters split across reads, CRLF endings and a BOM', async () => {
    const text = `\uFEFF{"t":"${'é'.repeat(700_000)}"}\r\n{"u":"😀"}\n`;
    writeFileSync(file, text);
    const read = await readNewLines(file, START);
    expect(read.lines.map((l) => l.text)).toEqual([`{"t":"${'é'.repeat(700_000)}"}`, '{"u":"😀"}']);
  });

  it('returns multi-megabyte lines whole and skips lines over the limit', async () => {
    const big = 'a'.repeat(3 * 1024 * 1024);
    writeFileSync(file, `${big}\n${'b'.repeat(5 * 1024 * 1024)}\nsmall\n`);
    const read = await readNewLines(file, START, {
      budgetBytes: 64 * 1024 * 1024,
      maxLineBytes: 4 * 1024 * 1024,
    });
    expect(read.lines.map((l) => [l.lineNo, l.text.length])).toEqual([
      [1, big.length],
      [3, 5],
    ]);
    expect(read.oversized).toEqual([{ lineNo: 2, bytes: 5 * 1024 * 1024 }]);
    expect(read.next.lineNo).toBe(3);
  });

  it('stops after its byte budget and says there is more', async () => {
    const line = 'c'.repeat(600 * 1024);
    writeFileSync(file, `${line}\n${line}\n${line}\n`);
    const limits = { budgetBytes: 1, maxLineBytes: 1024 * 1024 };
    const first = await readNewLines(file, START, limits);
    expect(first.lines.map((l) => l.lineNo)).toEqual([1]);
    expect(first.more).toBe(true);
    let next = first.next;
    const seen = [...first.lines];
    for (let more = first.more; more;) {
      const read = await readNewLines(file, next, limits);
      seen.push(...read.lines);
      next = read.next;
      more = read.more;
    }
    expect(seen.map((l) => l.lineNo)).toEqual([1, 2, 3]);
  });

  it('notices a file that got shorter than what was read', async () => {
    writeFileSync(file, 'one\ntwo\n');
    const read = await readNewLines(file, START);
    writeFileSync(file, 'x\n');
    expect((await readNewLines(file, read.next)).shrunk).toBe(true);
  });
});
