import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TranscriptAdapter } from '@graph-history/adapters';
import { listRelativeFiles, listSubdirectories } from './file-listing';
import type { FoundProject, ProjectFinder } from './project-finder';

/** What one project folder of a provider is: its graph name, and where its transcripts are. */
export interface ProjectFolder {
  /** The name the graph key derives from (Claude Code's folder name for the same cwd if known). */
  name: string;
  /** The folder the adapter's paths are relative to. */
  dir: string;
  what: string;
}

export interface FolderLayout {
  /** The provider's name for people: `Gemini CLI`. */
  label: string;
  adapter: Pick<TranscriptAdapter<unknown>, 'detect'>;
  /** How deep transcripts nest under a project's `dir`. */
  depth: number;
  /** The project a sub-folder of the provider's folder of projects holds; undefined: none. */
  project(folder: string): Promise<ProjectFolder | undefined>;
}

/**
 * Projects of a provider that keeps one folder per project (Gemini CLI's `~/.gemini/tmp/<project>`,
 * Cursor's `~/.cursor/projects/<project>`): `dir` is the folder of projects, or one project folder
 * (a project of its own when it holds transcripts).
 */
export class FolderProjectsFinder implements ProjectFinder {
  readonly label: string;
  private readonly found = new Map<string, FoundProject>();
  private counts = { sessions: 0, projects: 0 };

  constructor(
    readonly dir: string,
    private readonly layout: FolderLayout,
  ) {
    this.label = layout.label;
  }

  get sessions(): number {
    return this.counts.sessions;
  }

  async find(): Promise<FoundProject[]> {
    const own = await this.layout.project(this.dir);
    const folders = own
      ? [own]
      : await Promise.all(
          (await listSubdirectories(this.dir)).map((name) =>
            this.layout.project(join(this.dir, name)),
          ),
        );
    this.counts = { sessions: 0, projects: 0 };
    const out: FoundProject[] = [];
    for (const folder of folders) {
      if (!folder || !(await isDir(folder.dir))) continue;
      const files = this.layout.adapter.detect(
        await listRelativeFiles(folder.dir, this.layout.depth),
      );
      const sessions = new Set(files.map((f) => f.group)).size;
      if (sessions === 0) continue;
      this.counts.sessions += sessions;
      this.counts.projects += 1;
      let found = this.found.get(folder.dir);
      if (!found) {
        found = {
          name: folder.name,
          what: folder.what,
          source: { dir: folder.dir, depth: this.layout.depth },
        };
        this.found.set(folder.dir, found);
      }
      out.push(found);
    }
    return out;
  }

  describe(): string {
    const { sessions, projects } = this.counts;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    return `${this.label}: found ${plural(sessions, 'session')} in ${plural(projects, 'project')} under ${this.dir}.`;
  }
}

async function isDir(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}
