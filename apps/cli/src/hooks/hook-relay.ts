/**
 * The command a Claude Code hook runs: `node hook-relay.js --graph-history-hook <socket>`. It
 * passes the hook's JSON (stdin) to a running `watch` over its socket and exits. It must never
 * slow down or fail the agent's turn: it loads nothing but `node:net`, gives up after
 * RELAY_BUDGET_MS, ignores every error (no watch running, bad input) and always exits 0.
 */
import { connect } from 'node:net';

const RELAY_BUDGET_MS = 500;
const MAX_INPUT_BYTES = 1024 * 1024;

function done(): never {
  process.exit(0);
}

function relay(socketPath: string | undefined): void {
  setTimeout(done, RELAY_BUDGET_MS).unref();
  if (!socketPath) return done();
  const chunks: Buffer[] = [];
  let bytes = 0;
  process.stdin.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes <= MAX_INPUT_BYTES) chunks.push(chunk);
  });
  process.stdin.on('error', done);
  process.stdin.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8').trim();
    if (text === '' || bytes > MAX_INPUT_BYTES) return done();
    // One line per hook: the JSON without its line breaks.
    const line = `${JSON.stringify({ receivedAt: Date.now(), payload: text })}\n`;
    const socket = connect(socketPath);
    socket.on('error', done);
    socket.on('connect', () => socket.end(line, done));
  });
}

relay(process.argv[process.argv.indexOf('--graph-history-hook') + 1]);
