import { claudeCodeAdapter } from '@graph-history/adapters';
import { expectValidStream } from './support/graph-replay';
import { TranscriptBuilder } from './support/transcript-builder';

const SID = 'sess-1';

describe('lines real transcripts hold', () => {
  it('reports invalid JSON and non-object lines with their line numbers and carries on', () => {
    const b = new TranscriptBuilder(SID);
    const lines = [
      b.prompt('first'),
      b.raw(b.main, '{"type":"user", "message": {'),
      b.raw(b.main, '[1,2,3]'),
      b.raw(b.main, '   '),
      b.prompt('second'),
    ];
    const out = claudeCodeAdapter.toEvents(claudeCodeAdapter.initialState(), lines);
    expect(out.problems).toEqual([
      { file: `${SID}.jsonl`, lineNo: 2, message: expect.stringMatching(/^invalid JSON/) },
      { file: `${SID}.jsonl`, lineNo: 3, message: 'line is not a JSON object' },
    ]);
    expectValidStream(out.events);
    expect(out.events.filter((e) => e.type === 'status').map((e) => e.payload)).toEqual([
      { state: 'working', summary: 'first' },
      { state: 'working', summary: 'second' },
    ]);
  });

  it('ignores unknown line types and lines without a version, dating them from the line before', () => {
    const b = new TranscriptBuilder(SID);
    const summary = b.raw(
      b.main,
      JSON.stringify({ type: 'summary', summary: 'Old conversation', leafUuid: 'x' }),
    );
    const snapshot = b.raw(
      b.main,
      JSON.stringify({ type: 'file-history-snapshot', messageId: 'm', snapshot: {} }),
    );
    const first = b.prompt('hello');
    const future = b.line({ type: 'brand-new-kind', data: { anything: true } });
    const noVersion = b.raw(
      b.main,
      JSON.stringify({
        type: 'user',
        sessionId: SID,
        uuid: 'nv',
        message: { role: 'user', content: 'no version here' },
      }),
    );
    const out = claudeCodeAdapter.toEvents(claudeCodeAdapter.initialState(), [
      summary,
      snapshot,
      first,
      future,
      noVersion,
    ]);
    expect(out.problems).toEqual([]);
    expectValidStream(out.events);
    const last = out.events[out.events.length - 1]!;
    expect(last).toMatchObject({
      type: 'status',
      payload: { summary: 'no version here' },
      created: Date.parse(JSON.parse(future.text).timestamp),
    });
    expect(last.source.provider_version).toBe('2.1.39');
  });

  it('skips a line with events but no time at all, and says why', () => {
    const b = new TranscriptBuilder(SID);
    const undated = b.raw(
      b.main,
      JSON.stringify({
        type: 'user',
        sessionId: SID,
        uuid: 'u0',
        message: { role: 'user', content: 'when?' },
      }),
    );
    const out = claudeCodeAdapter.toEvents(claudeCodeAdapter.initialState(), [
      undated,
      b.prompt('now'),
    ]);
    expect(out.problems).toEqual([
      {
        file: `${SID}.jsonl`,
        lineNo: 1,
        message: 'line has no timestamp and none precedes it; skipped',
      },
    ]);
    expect(out.events.map((e) => e.type)).toEqual(['session.started', 'title', 'status']);
  });

  it('handles multi-megabyte lines and keeps only bounded text from them', () => {
    const b = new TranscriptBuilder(SID);
    const huge = 'x'.repeat(6 * 1024 * 1024);
    const lines = [
      b.prompt('read it'),
      b.toolUse('R1', 'Read', { file_path: '/big.log' }),
      b.toolResult('R1', huge, { toolUseResult: { file: { content: huge } } }),
    ];
    b.tick(20_000);
    lines.push(b.text(`Summary: ${huge}`));
    expect(lines[3]!.text.length).toBeGreaterThan(6 * 1024 * 1024);
    const out = claudeCodeAdapter.toEvents(claudeCodeAdapter.initialState(), lines);
    expectValidStream(out.events);
    expect(Math.max(...out.events.map((e) => JSON.stringify(e).length))).toBeLessThan(10_000);
  });

  it('turns NUL characters and unpaired surrogates into storable text', () => {
    const b = new TranscriptBuilder(SID);
    const out = claudeCodeAdapter.toEvents(claudeCodeAdapter.initialState(), [
      b.prompt('bad \u0000 byte and \ud800 half a pair, 😀 kept'),
    ]);
    expectValidStream(out.events);
    expect(out.events.find((e) => e.type === 'title')!.payload).toEqual({
      title: 'bad \uFFFD byte and \uFFFD half a pair, 😀 kept',
    });
  });

  it('gives the same keys when the same lines are converted again from scratch (re-sent events are duplicates)', () => {
    const b = new TranscriptBuilder(SID);
    const lines = [b.prompt('once'), b.text('done'), b.system('turn_duration')];
    const first = claudeCodeAdapter.toEvents(claudeCodeAdapter.initialState(), lines).events;
    const again = claudeCodeAdapter.toEvents(claudeCodeAdapter.initialState(), lines).events;
    expect(first.length).toBeGreaterThan(0);
    expect(again).toEqual(first);
  });
});
