import type { TimelineSource } from './graph-timeline';

/** A project found on disk: the name its graph key derives from, and the files that feed it. */
export interface FoundProject {
  name: string;
  /** The same object each time for the same project (its `groups` grow as sessions appear). */
  source: TimelineSource;
  /** What the project is, for people (default: the source folder). */
  what?: string;
}

/**
 * How a provider whose transcripts are not kept one folder per project (Codex keeps them by
 * date) is split into projects. Claude Code's folders of projects need none.
 */
export interface ProjectFinder {
  /** The provider's name for people: `Codex`. */
  readonly label: string;
  /** The folder to watch for changes. */
  readonly dir: string;
  /** Watch only `dir` itself, not its sub-folders (default: all of them). */
  readonly shallow?: boolean;
  find(): Promise<FoundProject[]>;
  /** Sessions found at the last `find`. */
  readonly sessions: number;
  /** One line: what was found. */
  describe(): string;
}
