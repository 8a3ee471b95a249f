import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  LineProblem,
  SourceLine,
  TranscriptAdapter,
  TranscriptFile,
} from '@graph-history/adapters';
import type { WatchEvent } from '@graph-history/domain';
import type { EventSender, SendTotals } from './event-sender';
import { emptyTotals } from './event-sender';
import { listRelativeFiles } from './file-listing';
import {
  DEFAULT_READ_LIMITS,
  type FilePosition,
  type ReadLimits,
  readNewLines,
} from './line-reader';
import type { WatchLog } from './watch-log';
import type { WatchStateStore } from './watch-state';

const START: FilePosition = { offset: 0, lineNo: 0 };
/** The snapshot is rewritten at most this often while reading (and always at the end of a pass). */
const SAVE_EVERY_MS = 1_000;

export interface ProjectWatcherOptions<S> {
  /** The project folder (absolute). */
  dir: string;
  adapter: TranscriptAdapter<S>;
  sender: EventSender;
  store: WatchStateStore;
  log: WatchLog;
  /** Ignore the saved snapshot and read every file from its start. */
  fromStart: boolean;
  limits?: ReadLimits;
}

interface Changed {
  files: TranscriptFile[];
  mtimeMs: number;
}

/**
 * Keeps one project folder's transcripts in step with its graph: reads what was appended since
 * the last pass, converts it with the adapter, sends it, and only then records the new positions.
 */
export class ProjectWatcher<S> {
  readonly totals: SendTotals = emptyTotals();
  private positions = new Map<string, FilePosition>();
  private adapterState: S;
  private lastSave = 0;
  private dirty = false;

  constructor(private readonly options: ProjectWatcherOptions<S>) {
    this.adapterState = options.adapter.initialState();
  }

  get dir(): string {
    return this.options.dir;
  }

  async init(): Promise<void> {
    if (this.options.fromStart) return;
    const { snapshot, problem } = await this.options.store.load<S>();
    if (problem) this.options.log.warn(problem);
    if (snapshot) {
      this.positions = snapshot.files;
      this.adapterState = snapshot.adapterState;
    }
  }

  /** Reads and sends everything appended since the last pass; stops early when `signal` aborts. */
  async sync(signal?: AbortSignal): Promise<void> {
    for (const group of await this.changedGroups()) {
      if (signal?.aborted) break;
      await this.syncGroup(group.files);
    }
    await this.save();
  }

  /** End of a one-off run: lets the adapter settle what waits for lines that will not come. */
  async finish(): Promise<void> {
    const out = this.options.adapter.flush(this.adapterState);
    this.report(out.problems);
    await this.commit(out.events, new Map());
    await this.save();
  }

  /** Groups with bytes past their saved positions, least recently written first. */
  private async changedGroups(): Promise<Changed[]> {
    const files = this.options.adapter.detect(await listRelativeFiles(this.options.dir));
    const groups = new Map<string, Changed>();
    for (const file of files) {
      const info = await stat(join(this.options.dir, file.path)).catch(() => undefined);
      if (!info?.isFile()) continue;
      const group = groups.get(file.group) ?? { files: [], mtimeMs: 0 };
      group.files.push(file);
      if (info.size !== (this.positions.get(file.path) ?? START).offset)
        group.mtimeMs = Math.max(group.mtimeMs, info.mtimeMs || 1);
      groups.set(file.group, group);
    }
    return [...groups.values()].filter((g) => g.mtimeMs > 0).sort((a, b) => a.mtimeMs - b.mtimeMs);
  }

  private async syncGroup(files: TranscriptFile[]): Promise<void> {
    for (let more = true; more;) {
      more = false;
      const lines: SourceLine[] = [];
      const next = new Map<string, FilePosition>();
      for (const file of files) {
        const read = await this.read(file);
        if (!read) continue;
        lines.push(...read.lines.map((l) => ({ file, lineNo: l.lineNo, text: l.text })));
        next.set(file.path, read.next);
        more ||= read.more;
      }
      const out =
        lines.length > 0
          ? this.options.adapter.toEvents(this.adapterState, lines)
          : { events: [], problems: [] };
      this.report(out.problems);
      await this.commit(out.events, next);
    }
  }

  private async read(file: TranscriptFile) {
    const path = join(this.options.dir, file.path);
    const limits = this.options.limits ?? DEFAULT_READ_LIMITS;
    try {
      let read = await readNewLines(path, this.positions.get(file.path) ?? START, limits);
      if (read.shrunk) {
        this.options.log.warn(
          `${path} got shorter than what was read; reading it again from the start`,
        );
        read = await readNewLines(path, START, limits);
      }
      for (const o of read.oversized) {
        this.options.log.warn(
          `${path}:${o.lineNo}: line of ${o.bytes} bytes is over the ${limits.maxLineBytes}-byte limit; skipped`,
        );
      }
      return read;
    } catch (err) {
      this.options.log.warn(`cannot read ${path}: ${(err as Error).message}`);
      return undefined;
    }
  }

  private report(problems: readonly LineProblem[]): void {
    for (const p of problems)
      this.options.log.warn(`${join(this.options.dir, p.file)}:${p.lineNo}: ${p.message}`);
  }

  /** Sends the events, then (only then) moves the read positions past the lines they came from. */
  private async commit(events: WatchEvent[], next: Map<string, FilePosition>): Promise<void> {
    if (events.length > 0) {
      const sent = await this.options.sender.send(events);
      this.totals.sent += sent.sent;
      this.totals.accepted += sent.accepted;
      this.totals.duplicates += sent.duplicates;
      this.totals.skipped += sent.skipped;
    }
    for (const [path, position] of next) this.positions.set(path, position);
    this.dirty = true;
    if (Date.now() - this.lastSave >= SAVE_EVERY_MS) await this.save();
  }

  private async save(): Promise<void> {
    if (!this.dirty) return;
    await this.options.store.save({ files: this.positions, adapterState: this.adapterState });
    this.lastSave = Date.now();
    this.dirty = false;
  }
}
