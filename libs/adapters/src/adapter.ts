import type { WatchEvent } from '@graph-history/domain';

/** What a watched folder holds: sessions' transcripts, or agent teams' files. */
export type FolderKind = 'sessions' | 'teams';

/** One transcript file an adapter claims, named relative to the watched project directory. */
export interface TranscriptFile {
  /** Path relative to the project directory, `/`-separated. */
  path: string;
  /** Stable id of the file inside the project; it prefixes the idempotency keys of its events. */
  id: string;
  /** Files of one group (a session and its sub-agents) are read and converted together. */
  group: string;
  /** A small JSON document read whole (and again when it changes), not a stream of lines. */
  whole?: boolean;
}

/** One complete line of a transcript file (without its newline). */
export interface SourceLine {
  file: TranscriptFile;
  /** 1-based line number inside the file. */
  lineNo: number;
  text: string;
  /**
   * The file's times when the line was read (ms), for providers whose lines carry no time of
   * their own (Cursor): `born` is when the file was made (its modification time where the file
   * system keeps no birth time).
   */
  fileTimes?: { born: number; modified: number };
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

/** A line parsed but not yet applied: the watcher orders such lines by `ts` across files. */
export interface TimedLine {
  /** The transcript's own time of the line (ms); undefined when neither it nor its file says. */
  ts: number | undefined;
}

export interface PreparedLine<P extends TimedLine> {
  /** Nothing to order (blank line, side document such as a sub-agent's meta file). */
  line?: P;
  /** A whole document may hold several dated entries (a teammate's inbox): each is a line. */
  lines?: P[];
  problem?: LineProblem;
}

/**
 * What a provider's own hook (e.g. a Claude Code hook) says happened just now, before its
 * transcript is written. Plain JSON as the hook received it, plus when the watcher got it.
 */
export interface Announcement {
  payload: Record<string, unknown>;
  receivedAt: number;
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
export interface TranscriptAdapter<State, P extends TimedLine = TimedLine> {
  /** Adapter name and version, sent as `source.adapter` (`<name>/<version>`). */
  readonly name: string;
  readonly version: number;
  /** Sent as `source.provider`. */
  readonly provider: string;
  /**
   * Picks the files this adapter reads among paths relative to a folder: a project's folder of
   * sessions (default), or a folder of teams (Claude Code's `~/.claude/teams`).
   */
  detect(paths: readonly string[], folder?: FolderKind): TranscriptFile[];
  initialState(): State;
  /** Parses one complete line (or a whole side document) without applying it. */
  prepare(state: State, line: SourceLine): PreparedLine<P>;
  /** Applies prepared lines in the order given (the watcher's timeline order). */
  apply(state: State, lines: readonly P[]): AdapterOutput;
  /**
   * Events for what a hook announced, with the keys the transcript will give the same facts, and
   * state updated so the transcript's copy adds nothing. Transcripts stay the source of truth.
   */
  announce(state: State, announcement: Announcement): AdapterOutput;
  /**
   * Converts newly appended complete lines (any files, any order of arrival) into events,
   * updating `state` in place: `prepare`, a stable sort by `ts`, then `apply`.
   */
  toEvents(state: State, lines: readonly SourceLine[]): AdapterOutput;
  /** Settles what still waits for lines that will not come (end of a one-off back-fill). */
  flush(state: State): AdapterOutput;
}

export function adapterId(adapter: Pick<TranscriptAdapter<unknown>, 'name' | 'version'>): string {
  return `${adapter.name}/${adapter.version}`;
}
