import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  Announcement,
  LineProblem,
  TimedLine,
  TranscriptAdapter,
  TranscriptFile,
} from '@graph-history/adapters';
import type { WatchEvent } from '@graph-history/domain';
import type { EventSender, SendTotals } from './event-sender';
import { emptyTotals } from './event-sender';
import { listRelativeFiles } from './file-listing';
import { FileProgress } from './file-progress';
import { DEFAULT_READ_LIMITS, type ReadLimits, readNewLines } from './line-reader';
import { type HeldLine, ReorderBuffer } from './reorder-buffer';
import type { WatchLog } from './watch-log';
import type { WatchStateStore } from './watch-state';
import type { WatchStats } from './watch-stats';

/** The snapshot is rewritten at most this often while sending (and always at the end of a pass). */
const SAVE_EVERY_MS = 1_000;

export interface GraphTimelineOptions<S, P extends TimedLine> {
  graphKey: string;
  adapter: TranscriptAdapter<S, P>;
  sender: EventSender;
  store: WatchStateStore;
  log: WatchLog;
  stats: WatchStats;
  /** Ignore the saved snapshot and read every file from its start. */
  fromStart: boolean;
  /** How long a live line is held for lines of other files with earlier timestamps. */
  windowMs: number;
  limits?: ReadLimits;
}

/** A folder whose transcripts feed the graph; `group` keeps only one session of it. */
export interface TimelineSource {
  dir: string;
  group?: string;
  /** A folder of agent teams (`~/.claude/teams`), whose `group` is one team: not a session. */
  team?: boolean;
  /** Only these groups of the folder (it may gain some); all when absent. */
  groups?: ReadonlySet<string>;
  /** How deep transcripts nest under `dir` (default: the Claude Code layouts' 3). */
  depth?: number;
}

interface Tracked {
  /** Absolute path: the file's key in the snapshot. */
  key: string;
  dir: string;
  file: TranscriptFile;
}

export interface SyncOptions {
  /** Send everything read (a one-off run); otherwise keep the reorder window. */
  drain: boolean;
  signal?: AbortSignal;
}

/**
 * One graph's timeline. Whatever the graph gathers (several projects, sessions, their sub-agent
 * files) is read, parsed, and sent in the order of the lines' own timestamps: a back-fill merges
 * the files by time, and a live tail holds each line for a short reorder window. Read positions
 * and the adapter state are saved only after the events they produced were acknowledged.
 */
export class GraphTimeline<S, P extends TimedLine> {
  readonly totals: SendTotals = emptyTotals();
  readonly sources: TimelineSource[] = [];
  private readonly buffer: ReorderBuffer<P>;
  private progress = new Map<string, FileProgress>();
  private adapterState: S;
  private hooks: Announcement[] = [];
  private lastSave = 0;
  private dirty = false;
  private groups = new Set<string>();
  private sessionIds = new Set<string>();

  constructor(private readonly options: GraphTimelineOptions<S, P>) {
    this.adapterState = options.adapter.initialState();
    this.buffer = new ReorderBuffer<P>(options.windowMs);
  }

  get graphKey(): string {
    return this.options.graphKey;
  }

  /** Sessions (file groups) this timeline reads. */
  get sessionCount(): number {
    return this.groups.size;
  }

  /** When held lines are due (undefined when none are held). */
  nextDeadline(): number | undefined {
    return this.buffer.nextDeadline();
  }

  addSource(source: TimelineSource): void {
    this.sources.push(source);
  }

  owns(dir: string): boolean {
    return this.sources.some((s) => s.dir === dir);
  }

  /** True when a session (file group) of this id is among the files last listed. */
  followsSession(id: string): boolean {
    return this.sessionIds.has(id);
  }

  /** True when the files of `group` under `dir` feed this timeline. */
  hasSource(dir: string, group: string): boolean {
    return this.sources.some((s) => s.dir === dir && s.group === group);
  }

  async init(): Promise<void> {
    if (this.options.fromStart) return;
    const { snapshot, problem } = await this.options.store.load<S>();
    if (problem) this.options.log.warn(problem);
    if (snapshot) {
      this.progress = new Map(
        [...snapshot.files].map(([key, position]) => [key, new FileProgress(position)]),
      );
      this.adapterState = snapshot.adapterState;
    }
  }

  /** A hook announcement for one of this graph's sessions; applied at the next sync. */
  announce(announcement: Announcement): void {
    this.hooks.push(announcement);
  }

  /** Lists the files of every source (new sessions appear while Claude Code runs). */
  async listFiles(): Promise<Tracked[]> {
    const out: Tracked[] = [];
    const groups = new Set<string>();
    const sessionIds = new Set<string>();
    const listed = new Map<string, Promise<string[]>>();
    for (const source of this.sources) {
      const at = `${source.depth ?? ''}\0${source.dir}`;
      if (!listed.has(at)) listed.set(at, listRelativeFiles(source.dir, source.depth));
      const paths = await listed.get(at)!;
      const files = this.options.adapter.detect(paths, source.team ? 'teams' : 'sessions');
      for (const file of files) {
        if (source.group !== undefined && file.group !== source.group) continue;
        if (source.groups !== undefined && !source.groups.has(file.group)) continue;
        if (!source.team) {
          groups.add(`${source.dir}\0${file.group}`);
          sessionIds.add(file.group);
        }
        out.push({ key: join(source.dir, file.path), dir: source.dir, file });
      }
    }
    this.groups = groups;
    this.sessionIds = sessionIds;
    // Side documents (sub-agent meta files) first: lines read in the same pass may need them.
    return out.sort((a, b) => Number(b.file.whole === true) - Number(a.file.whole === true));
  }

  /** Reads what was appended, sends what is due, then announces what hooks said. */
  async sync({ drain, signal }: SyncOptions): Promise<void> {
    for (;;) {
      let behind = false;
      let watermark = Number.POSITIVE_INFINITY;
      for (const tracked of await this.listFiles()) {
        if (signal?.aborted) return;
        const read = await this.read(tracked);
        if (read?.more) {
          behind = true;
          watermark = Math.min(watermark, read.lastTs ?? Number.NEGATIVE_INFINITY);
        }
      }
      if (!behind) break;
      // A file is still being read: lines up to where it got can go, the rest must wait for it.
      await this.send(this.buffer.release(Number.NEGATIVE_INFINITY, watermark));
    }
    const hooks = this.hooks;
    this.hooks = [];
    const until = Math.max(Number.NEGATIVE_INFINITY, ...hooks.map((h) => h.receivedAt));
    await this.send(drain ? this.buffer.releaseAll() : this.buffer.release(Date.now(), until));
    for (const hook of hooks) {
      const out = this.options.adapter.announce(this.adapterState, hook);
      this.report(out.problems);
      await this.deliver(out.events);
    }
    this.options.stats.held = this.buffer.size;
    await this.save(true);
  }

  /** End of a one-off run: lets the adapter settle what waits for lines that will not come. */
  async finish(): Promise<void> {
    const out = this.options.adapter.flush(this.adapterState);
    this.report(out.problems);
    await this.deliver(out.events);
    this.dirty = true;
    await this.save(true);
  }

  private async read(tracked: Tracked): Promise<{ more: boolean; lastTs?: number } | undefined> {
    const progress = this.progress.get(tracked.key) ?? new FileProgress();
    this.progress.set(tracked.key, progress);
    const info = await stat(tracked.key).catch(() => undefined);
    if (!info?.isFile() || info.size === progress.read.offset) return undefined;
    if (tracked.file.whole) return this.readWhole(tracked, progress, info.size);
    const limits = this.options.limits ?? DEFAULT_READ_LIMITS;
    try {
      let read = await readNewLines(tracked.key, progress.read, limits);
      if (read.shrunk) {
        this.options.log.warn(
          `${tracked.key} got shorter than what was read; reading it again from the start`,
        );
        progress.restart();
        read = await readNewLines(tracked.key, progress.read, limits);
      }
      for (const o of read.oversized) {
        this.warn(
          `${tracked.key}:${o.lineNo}: line of ${o.bytes} bytes is over the ${limits.maxLineBytes}-byte limit; skipped`,
        );
      }
      const now = Date.now();
      let lastTs: number | undefined;
      // a file copied with its times kept was modified before it was born here: the earlier wins
      const modified = Math.trunc(info.mtimeMs);
      const born =
        info.birthtimeMs > 0 ? Math.min(Math.trunc(info.birthtimeMs), modified) : modified;
      const fileTimes = { born, modified };
      for (const line of read.lines) {
        const prepared = this.options.adapter.prepare(this.adapterState, {
          file: tracked.file,
          lineNo: line.lineNo,
          text: line.text,
          fileTimes,
        });
        if (prepared.problem) this.report([prepared.problem], tracked.dir);
        if (!prepared.line) {
          progress.readLine(line.end);
          continue;
        }
        const held = this.buffer.add(tracked.key, prepared.line, prepared.line.ts, now);
        progress.readLine(line.end, held.seq);
        lastTs = prepared.line.ts ?? lastTs;
      }
      if (read.next.offset > progress.read.offset) progress.skipTo(read.next);
      return { more: read.more, ...(lastTs !== undefined ? { lastTs } : {}) };
    } catch (err) {
      this.warn(`cannot read ${tracked.key}: ${(err as Error).message}`);
      return undefined;
    }
  }

  /**
   * A side document read whole (again when it changes). Its dated entries (a team's members and
   * inbox messages) join the reorder buffer like lines; the file counts as sent once they all are.
   */
  private async readWhole(tracked: Tracked, progress: FileProgress, size: number) {
    const text = await readFile(tracked.key, 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const prepared = this.options.adapter.prepare(this.adapterState, {
      file: tracked.file,
      lineNo: 1,
      text,
    });
    if (prepared.problem) this.report([prepared.problem], tracked.dir);
    progress.restart();
    const end = { offset: size, lineNo: 1 };
    const now = Date.now();
    for (const line of prepared.lines ?? []) {
      progress.readLine(end, this.buffer.add(tracked.key, line, line.ts, now).seq);
    }
    progress.skipTo(end);
    this.dirty = true;
    return undefined;
  }

  private async send(released: HeldLine<P>[]): Promise<void> {
    if (released.length === 0) return;
    const out = this.options.adapter.apply(
      this.adapterState,
      released.map((h) => h.line),
    );
    this.report(out.problems);
    await this.deliver(out.events);
    const byFile = new Map<string, Set<number>>();
    for (const h of released) {
      const seqs = byFile.get(h.file) ?? new Set<number>();
      seqs.add(h.seq);
      byFile.set(h.file, seqs);
    }
    for (const [key, seqs] of byFile) this.progress.get(key)?.sent(seqs);
    const latest = released[released.length - 1]!.ts; // released lines come sorted by time
    if (Number.isFinite(latest)) this.options.stats.lagMs = Math.max(0, Date.now() - latest);
    this.dirty = true;
    await this.save(false);
  }

  private async deliver(events: WatchEvent[]): Promise<void> {
    if (events.length === 0) return;
    const sent = await this.options.sender.send(events);
    this.totals.sent += sent.sent;
    this.totals.accepted += sent.accepted;
    this.totals.duplicates += sent.duplicates;
    this.totals.skipped += sent.skipped;
    this.options.stats.sent += sent.sent;
  }

  private report(problems: readonly LineProblem[], dir?: string): void {
    for (const p of problems) {
      const where = dir ? join(dir, p.file) : this.locate(p.file);
      this.warn(`${where}:${p.lineNo}: ${p.message}`);
    }
  }

  /** The absolute path of a file named relative to one of the sources. */
  private locate(path: string): string {
    for (const source of this.sources) {
      const key = join(source.dir, path);
      if (this.progress.has(key)) return key;
    }
    return path;
  }

  private warn(message: string): void {
    this.options.stats.errors += 1;
    this.options.log.warn(message);
  }

  private async save(force: boolean): Promise<void> {
    if (!this.dirty || (!force && Date.now() - this.lastSave < SAVE_EVERY_MS)) return;
    const files = new Map([...this.progress].map(([key, p]) => [key, p.committed]));
    await this.options.store.save({ files, adapterState: this.adapterState });
    this.lastSave = Date.now();
    this.dirty = false;
  }
}
