import { SseParser } from './sse-parser';

/** Everything `chunks` dispatch, fed one after another. */
const parse = (...chunks: string[]) => {
  const parser = new SseParser();
  return { messages: chunks.flatMap((c) => parser.push(c)), parser };
};

describe('SseParser', () => {
  it('dispatches on a blank line: id, event type, data', () => {
    expect(parse('id: evt_1\nevent: message\ndata: {"a":1}\n\n').messages).toEqual([
      { event: 'message', data: '{"a":1}', id: 'evt_1' },
    ]);
  });

  it('joins data lines with LF, keeps the last id for later messages, and defaults the type', () => {
    const { messages } = parse('id: 7\ndata: one\ndata:two\ndata\n\n', 'data: next\n\n');
    expect(messages).toEqual([
      { event: 'message', data: 'one\ntwo\n', id: '7' },
      { event: 'message', data: 'next', id: '7' },
    ]);
  });

  it('skips comments, unknown fields and messages without data; reads retry digits only', () => {
    const { messages, parser } = parse(
      ':\n\n: heartbeat\nretry: 2500\nfoo: bar\nevent: gap\n\nretry: 1x\nevent: gap\ndata: {}\n\n',
    );
    expect(messages).toEqual([{ event: 'gap', data: '{}', id: '' }]);
    expect(parser.retryMs).toBe(2_500);
  });

  it('takes CRLF, CR and LF line ends, split anywhere across chunks', () => {
    const text = 'id: a\r\ndata: x\r\rdata: y\r\n\r\nevent: error\ndata: z\n\n';
    const whole = parse(text).messages;
    expect(whole).toEqual([
      { event: 'message', data: 'x', id: 'a' },
      { event: 'message', data: 'y', id: 'a' },
      { event: 'error', data: 'z', id: 'a' },
    ]);
    for (let cut = 1; cut < text.length; cut++)
      expect(parse(text.slice(0, cut), text.slice(cut)).messages).toEqual(whole);
    expect(parse(...text.split('')).messages).toEqual(whole);
  });

  it('ignores an id holding NUL and waits for the blank line before dispatching', () => {
    const parser = new SseParser();
    expect(parser.push('id: ok\n\nid: a\0b\ndata: 1\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'message', data: '1', id: 'ok' }]);
  });
});
