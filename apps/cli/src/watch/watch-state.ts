import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FilePosition } from './line-reader';

const FORMAT = 2;

/**
 * What a project watcher has sent: the read position of each transcript file and the adapter
 * state after those lines. Saved only once their events were acknowledged, so a restart resumes
 * exactly there; losing the file only means re-sending events the server counts as duplicates.
 */
export interface WatchSnapshot<S> {
  files: Map<string, FilePosition>;
  adapterState: S;
}

interface Stored {
  format: number;
  adapter: string;
  files: Record<string, FilePosition>;
  adapterState: unknown;
}

export class WatchStateStore {
  constructor(
    readonly path: string,
    private readonly adapter: string,
  ) {}

  /** The saved snapshot, or undefined when there is none usable (missing, corrupt, other adapter). */
  async load<S>(): Promise<{ snapshot?: WatchSnapshot<S>; problem?: string }> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      return {
        problem: `cannot read ${this.path}: ${(err as Error).message}; starting from the beginning`,
      };
    }
    try {
      const stored = JSON.parse(text) as Stored;
      if (stored.format !== FORMAT || stored.adapter !== this.adapter) {
        return {
          problem: `${this.path} was written by another version; starting from the beginning`,
        };
      }
      const files = new Map(Object.entries(stored.files));
      return { snapshot: { files, adapterState: stored.adapterState as S } };
    } catch {
      return { problem: `${this.path} is corrupt; starting from the beginning` };
    }
  }

  /** Replaces the saved snapshot atomically (write, then rename). */
  async save<S>(snapshot: WatchSnapshot<S>): Promise<void> {
    const stored: Stored = {
      format: FORMAT,
      adapter: this.adapter,
      files: Object.fromEntries(snapshot.files),
      adapterState: snapshot.adapterState,
    };
    await mkdir(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(stored));
    await rename(tmp, this.path);
  }
}
