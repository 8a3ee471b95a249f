import { type FSWatcher, watch } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Announcement } from '@graph-history/adapters';
import type { WatchLog } from './watch-log';

/** Hook files are a few kilobytes; a larger one is dropped. */
const MAX_HOOK_BYTES = 1024 * 1024;
const HOOK_FILE = /^h\d+\.json$/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parse(text: string, receivedAt: number): Announcement | undefined {
  try {
    const payload: unknown = JSON.parse(text);
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
    return { payload: payload as Record<string, unknown>, receivedAt };
  } catch {
    return undefined;
  }
}

/**
 * The folder a running `watch` takes Claude Code hooks from (see `hooks install`): each hook
 * writes one `h<pid>.json` file, which is read, dated by its modification time and deleted. The
 * folder exists only while a watch runs (`watch.pid` says which), so hooks write nothing when
 * none does; files left by a watch that stopped are dropped (the transcripts hold what they said).
 */
export class HookInbox {
  private watcher: FSWatcher | undefined;
  private owner = false;
  private scanning: Promise<void> | undefined;
  private again = false;

  constructor(
    readonly dir: string,
    private readonly onAnnouncement: (a: Announcement) => void,
    private readonly log: WatchLog,
  ) {}

  /** Takes the folder; false (and a warning) when another running watch has it. */
  async start(): Promise<boolean> {
    const pidFile = join(this.dir, 'watch.pid');
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      const other = Number(await readFile(pidFile, 'utf8').catch(() => ''));
      if (Number.isInteger(other) && other > 0 && alive(other)) {
        this.log.warn(
          `another watch (pid ${other}) takes the hooks in ${this.dir}; this one follows files only`,
        );
        return false;
      }
      for (const name of await readdir(this.dir))
        if (HOOK_FILE.test(name) || name.startsWith('.h'))
          await unlink(join(this.dir, name)).catch(() => undefined);
      await writeFile(pidFile, String(process.pid), { mode: 0o600 });
    } catch (err) {
      this.log.warn(
        `cannot take hooks in ${this.dir} (${(err as Error).message}); following files only`,
      );
      return false;
    }
    this.owner = true;
    try {
      this.watcher = watch(this.dir, () => void this.scan());
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      this.watcher = undefined; // the runner's passes still scan
    }
    return true;
  }

  /** Reads, hands over and deletes the hook files there are, oldest first. */
  scan(): Promise<void> {
    if (!this.owner) return Promise.resolve();
    if (this.scanning) {
      this.again = true;
      return this.scanning;
    }
    this.scanning = this.readAll().finally(() => {
      this.scanning = undefined;
      if (this.again) {
        this.again = false;
        void this.scan();
      }
    });
    return this.scanning;
  }

  async close(): Promise<void> {
    this.watcher?.close();
    this.watcher = undefined;
    if (!this.owner) return;
    this.owner = false;
    await this.scanning;
    await rm(this.dir, { recursive: true, force: true });
  }

  private async readAll(): Promise<void> {
    const names = (await readdir(this.dir).catch(() => [])).filter((n) => HOOK_FILE.test(n));
    const files: Array<{ path: string; at: number }> = [];
    for (const name of names) {
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => undefined);
      if (info) files.push({ path, at: Math.round(info.mtimeMs) });
    }
    for (const file of files.sort((a, b) => a.at - b.at)) {
      const text = await readFile(file.path, 'utf8').catch(() => undefined);
      await unlink(file.path).catch(() => undefined);
      if (text === undefined || text.length > MAX_HOOK_BYTES) continue;
      const announcement = parse(text, file.at);
      if (announcement) this.onAnnouncement(announcement);
    }
  }
}
