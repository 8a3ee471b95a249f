import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FoundProject, ProjectFinder } from '../project-finder';
import { legacyStorageOf } from './legacy-storage';
import { type MirroredProject, RowMirror } from './row-mirror';

/**
 * opencode's projects: its sessions' rows are copied out of `opencode.db` at each pass (see
 * RowMirror) and each project's copies feed the graph of its working directory.
 */
export class OpencodeFinder implements ProjectFinder {
  readonly label = 'opencode';
  /** The database's folder: its `-wal` changes as opencode writes. */
  readonly dir: string;
  /** Only the folder itself: beside the database it holds opencode's snapshots and storage. */
  readonly shallow = true;
  private readonly mirror: RowMirror;
  private readonly found = new Map<string, FoundProject>();
  private counts = { sessions: 0, projects: 0 };

  constructor(
    readonly dbPath: string,
    dataDir: string,
  ) {
    this.dir = dirname(dbPath);
    this.mirror = new RowMirror(dataDir, dbPath);
  }

  get sessions(): number {
    return this.counts.sessions;
  }

  async find(): Promise<FoundProject[]> {
    if (!existsSync(this.dbPath) && !existsSync(legacyStorageOf(this.dbPath))) return [];
    let projects: MirroredProject[];
    try {
      projects = await this.mirror.sync();
    } catch (err) {
      // opencode holds the database past the 5 s wait (a long checkpoint): the next pass reads it
      const code = String((err as NodeJS.ErrnoException).code);
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
        return [...this.found.values()];
      }
      throw err;
    }
    this.counts = { sessions: 0, projects: projects.length };
    for (const p of projects) {
      this.counts.sessions += p.sessions;
      if (!this.found.has(p.name)) {
        this.found.set(p.name, {
          name: p.name,
          what: `the opencode sessions of ${p.directory}`,
          source: { dir: p.dir, depth: 2 },
        });
      }
    }
    return projects.map((p) => this.found.get(p.name)!);
  }

  describe(): string {
    const { sessions, projects } = this.counts;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    return `opencode: found ${plural(sessions, 'session')} in ${plural(projects, 'project')} in ${this.dbPath}.`;
  }
}
