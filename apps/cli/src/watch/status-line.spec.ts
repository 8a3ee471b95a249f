import { PassThrough } from 'node:stream';
import { StatusLine, formatStatus } from './status-line';
import { emptyStats } from './watch-stats';

function sink(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  stream.on('data', (d) => (text += String(d)));
  return { stream, text: () => text };
}

describe('watch status line', () => {
  const stats = {
    ...emptyStats(),
    sessions: 3,
    sent: 1234,
    lagMs: 420,
    errors: 1,
    held: 5,
    hooks: 2,
  };

  it('says sessions followed, events sent, lag and errors in one line', () => {
    expect(formatStatus(stats)).toBe(
      'watching 3 sessions · 1234 events sent · lag 0.4 s · 1 error · 5 held · 2 hooks',
    );
    expect(formatStatus({ ...emptyStats(), lagMs: 3 * 86_400_000 })).toBe(
      'watching 0 sessions · 0 events sent · lag 3 d · 0 errors',
    );
  });

  it('redraws in place at a terminal and prints messages above it', async () => {
    const out = sink(true);
    const err = sink(true);
    const live = { ...stats };
    const line = new StatusLine(out.stream, err.stream, 'tty', live);
    line.start();
    line.info('Sharing x');
    live.sent = 1300;
    line.render();
    line.stop();
    await new Promise((r) => setImmediate(r));
    expect(out.text()).toBe(
      `\r\u001b[2K${formatStatus(stats)}` +
        `\r\u001b[2KSharing x\n${formatStatus(stats)}` +
        `\r\u001b[2K${formatStatus(live)}` +
        `\r\u001b[2K${formatStatus(live)}\n`,
    );
  });

  it('prints plain lines, or JSON lines with --json, when not at a terminal', async () => {
    const plain = sink(false);
    const json = sink(false);
    const a = new StatusLine(plain.stream, plain.stream, 'plain', stats);
    const b = new StatusLine(json.stream, json.stream, 'json', stats);
    for (const line of [a, b]) {
      line.start();
      line.warn('bad line');
      line.render(); // unchanged: not printed again
      line.stop();
    }
    await new Promise((r) => setImmediate(r));
    expect(plain.text()).toBe(`${formatStatus(stats)}\nwarn: bad line\n`);
    expect(
      json
        .text()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([{ status: stats }, { level: 'warn', message: 'bad line' }]);
  });
});
