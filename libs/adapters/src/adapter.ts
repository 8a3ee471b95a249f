import type { WatchEvent } from '@graph-history/domain';

/** One transcript file an adapter claims, named relative to the watched project directory. */
export interface TranscriptFile {
  /** Path relative to the project directory, `/`-separated. */
  path: string;
  /** Stable id of the file inside the project; it prefixes the idempotency keys of its events. */
  id: string;
  /** Files of one group (a session and its sub-agents) are read and converted together. */
  group: string;
}

/** One complete line of a transcript file (without its newline). */
export interface SourceLine {
  file: TranscriptFile;
  /** 1-based line number inside the file. */
  lineNo: number;
  text: string;
}

/** A line the adapter could not use; the watcher logs it and goes on. */
export interface LineProblem {
  file: string;
  lineNo: number;
  message: string;
}

export interface AdapterOutput {
  events: WatchEvent[];
  problems: LineProblem[];
}

/**
 * Turns one provider's transcripts into WatchEvents. Implementations are pure: no I/O, no clock,
 * no randomness. All memory lives in the explicit `State`, which is plain JSON so a watcher can
 * persist it next to its file offsets and resume after a restart.
 *
 * Contract for the events produced (ingest.md): a node is created before any event names it,
 * a ref is created once, nothing but `activity` follows a node's `ended`, and every key is derived
 * from the transcript so converting the same lines again yields the same keys.
 */
export interface TranscriptAdapter<State> {
  /** Adapter name and version, sent as `source.adapter` (`<name>/<version>`). */
  readonly name: string;
  readonly version: number;
  /** Sent as `source.provider`. */
  readonly provider: string;
  /** Picks the files this adapter reads among paths relative to a project directory. */
  detect(paths: readonly string[]): TranscriptFile[];
  initialState(): State;
  /**
   * Converts newly appended complete lines (any files, any order of arrival) into events,
   * updating `state` in place. Lines of one call are ordered by the transcript's own clock.
   */
  toEvents(state: State, lines: readonly SourceLine[]): AdapterOutput;
  /** Settles what still waits for lines that will not come (end of a one-off back-fill). */
  flush(state: State): AdapterOutput;
}

export function adapterId(adapter: Pick<TranscriptAdapter<unknown>, 'name' | 'version'>): string {
  return `${adapter.name}/${adapter.version}`;
}
