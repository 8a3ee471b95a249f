import { chmod, unlink } from 'node:fs/promises';
import { type Server, type Socket, connect, createServer } from 'node:net';
import type { Announcement } from '@graph-history/adapters';
import type { WatchLog } from './watch-log';

/** A hook line longer than this is dropped (hook payloads are a few kilobytes). */
const MAX_LINE = 1024 * 1024;

function parse(line: string): Announcement | undefined {
  try {
    const outer = JSON.parse(line) as { receivedAt?: unknown; payload?: unknown };
    const payload: unknown =
      typeof outer.payload === 'string' ? JSON.parse(outer.payload) : outer.payload;
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
    const receivedAt = typeof outer.receivedAt === 'number' ? outer.receivedAt : Date.now();
    return { payload: payload as Record<string, unknown>, receivedAt };
  } catch {
    return undefined;
  }
}

/** True when something answers on the socket (another watch), false for a stale socket file. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * The socket a running `watch` listens on for Claude Code hooks (see `hooks install`). Each
 * connection carries one JSON line from the hook relay; it is handed over as an announcement.
 */
export class HookInbox {
  private server: Server | undefined;

  constructor(
    readonly path: string,
    private readonly onAnnouncement: (a: Announcement) => void,
    private readonly log: WatchLog,
  ) {}

  /** Starts listening; false (and a warning) when it cannot, e.g. another watch listens there. */
  async start(): Promise<boolean> {
    try {
      await this.listen();
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') return this.cannot(err as Error);
    }
    if (await answers(this.path)) {
      this.log.warn(`another watch listens for hooks on ${this.path}; this one follows files only`);
      return false;
    }
    await unlink(this.path).catch(() => undefined);
    return this.listen().then(
      () => true,
      (err: Error) => this.cannot(err),
    );
  }

  private cannot(err: Error): false {
    this.log.warn(`cannot listen for hooks on ${this.path} (${err.message}); following files only`);
    return false;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  private listen(): Promise<void> {
    const server = createServer((socket) => this.receive(socket));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.path, () => {
        server.off('error', reject);
        // Only this user's hooks may talk to it.
        if (process.platform !== 'win32') void chmod(this.path, 0o600).catch(() => undefined);
        server.on('error', (err) => this.log.warn(`hook socket ${this.path}: ${err.message}`));
        this.server = server;
        resolve();
      });
    });
  }

  private receive(socket: Socket): void {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_LINE) socket.destroy();
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n')) {
        const announcement = parse(text.slice(0, nl));
        text = text.slice(nl + 1);
        if (announcement) this.onAnnouncement(announcement);
      }
    });
    socket.on('error', () => undefined);
  }
}
