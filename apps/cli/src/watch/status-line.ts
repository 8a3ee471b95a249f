import type { OutputStream } from '../io';
import type { WatchLog } from './watch-log';
import type { WatchStats } from './watch-stats';

/** How the watcher reports: a status line redrawn in place, plain lines, or JSON lines. */
export type StatusMode = 'tty' | 'plain' | 'json';

const CLEAR_LINE = '\r\u001b[2K';
const REDRAW_MS = 250;
const PLAIN_EVERY_MS = 10_000;

function lag(ms: number | undefined): string {
  if (ms === undefined) return 'lag –';
  if (ms < 60_000) return `lag ${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `lag ${Math.round(ms / 60_000)} min`;
  if (ms < 172_800_000) return `lag ${Math.round(ms / 3_600_000)} h`;
  return `lag ${Math.round(ms / 86_400_000)} d`;
}

/** `watching 3 sessions · 1234 events sent · lag 0.4 s · 0 errors` (+ held lines and hooks). */
export function formatStatus(s: WatchStats): string {
  const parts = [
    `watching ${s.sessions} session${s.sessions === 1 ? '' : 's'}`,
    `${s.sent} events sent`,
    lag(s.lagMs),
    `${s.errors} error${s.errors === 1 ? '' : 's'}`,
  ];
  if (s.held > 0) parts.push(`${s.held} held`);
  if (s.hooks > 0) parts.push(`${s.hooks} hook${s.hooks === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

/**
 * The watcher's output. At a terminal, one status line (sessions followed, events sent, lag,
 * errors) is redrawn in place and messages are printed above it. Elsewhere the status is a plain
 * line every 10 s when it changed; with `--json` every line is a JSON object.
 */
export class StatusLine implements WatchLog {
  private timer: NodeJS.Timeout | undefined;
  private shown = '';
  private drawn = false;

  constructor(
    private readonly stdout: OutputStream,
    private readonly stderr: OutputStream,
    private readonly mode: StatusMode,
    private readonly stats: WatchStats,
  ) {}

  info(message: string): void {
    this.print(this.stdout, 'info', message);
  }

  warn(message: string): void {
    this.print(this.stderr, 'warn', message);
  }

  start(): void {
    this.timer = setInterval(() => this.render(), this.mode === 'tty' ? REDRAW_MS : PLAIN_EVERY_MS);
    this.timer.unref();
    this.render();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.drawn) this.stdout.write(`${CLEAR_LINE}${this.shown}\n`);
    this.drawn = false;
  }

  render(): void {
    const line = formatStatus(this.stats);
    if (line === this.shown && (this.mode !== 'tty' || this.drawn)) return;
    this.shown = line;
    if (this.mode === 'json')
      this.stdout.write(`${JSON.stringify({ status: { ...this.stats } })}\n`);
    else if (this.mode === 'plain') this.stdout.write(`${line}\n`);
    else {
      this.stdout.write(`${CLEAR_LINE}${line}`);
      this.drawn = true;
    }
  }

  private print(stream: OutputStream, level: 'info' | 'warn', message: string): void {
    if (this.mode === 'json') {
      stream.write(`${JSON.stringify({ level, message })}\n`);
      return;
    }
    if (this.drawn) this.stdout.write(CLEAR_LINE);
    stream.write(level === 'warn' ? `warn: ${message}\n` : `${message}\n`);
    if (this.drawn) this.stdout.write(this.shown);
  }
}
