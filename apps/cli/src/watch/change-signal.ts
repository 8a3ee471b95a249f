import { type FSWatcher, watch } from 'node:fs';

/** A folder to watch; a folder that holds much else (opencode's data folder) only at its top. */
export type WatchedDir = string | { dir: string; recursive: false };

/**
 * Wakes the watcher when something under its folders changes (fs.watch, recursive), and at the
 * latest after a polling interval: fs.watch can miss events or be unavailable (inotify limits,
 * network file systems), so polling is the fallback that always works.
 */
export class ChangeSignal {
  private watchers: FSWatcher[] = [];
  private pending = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly dirs: readonly WatchedDir[],
    private readonly pollMs: number,
  ) {}

  start(): void {
    for (const watched of this.dirs) {
      const dir = typeof watched === 'string' ? watched : watched.dir;
      try {
        const recursive = typeof watched === 'string';
        const watcher = watch(dir, { recursive }, () => this.notify());
        watcher.on('error', () => this.stopWatching(watcher));
        this.watchers.push(watcher);
      } catch {
        // polling only for this folder (missing, or no notifications)
      }
    }
  }

  /**
   * Resolves on the next change, after the polling interval, at `deadline` (epoch ms) when one is
   * given, or when `signal` aborts.
   */
  next(signal: AbortSignal, deadline?: number): Promise<void> {
    if (this.pending || signal.aborted) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        this.pending = false;
        resolve();
      };
      const wait =
        deadline === undefined
          ? this.pollMs
          : Math.max(0, Math.min(this.pollMs, deadline - Date.now()));
      const timer = setTimeout(done, wait);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }

  close(): void {
    for (const watcher of [...this.watchers]) this.stopWatching(watcher);
    this.wake?.();
  }

  /** Wakes the watcher now (a hook said a transcript changed). */
  notify(): void {
    this.pending = true;
    this.wake?.();
  }

  private stopWatching(watcher: FSWatcher): void {
    watcher.close();
    this.watchers = this.watchers.filter((w) => w !== watcher);
  }
}
