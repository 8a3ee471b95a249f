import { basename, join } from 'node:path';
import { type TranscriptAdapter, adapterId } from '@graph-history/adapters';
import { IngestClient, IngestRequestError } from '../ingest-client';
import { ChangeSignal } from './change-signal';
import { EventSender, type SendTotals, emptyTotals } from './event-sender';
import { listSubdirectories } from './file-listing';
import type { ReadLimits } from './line-reader';
import { ProjectWatcher } from './project-watcher';
import { graphKeyFor } from './projects';
import type { WatchLog } from './watch-log';
import { WatchStateStore } from './watch-state';

export interface WatchRunOptions {
  /** The folder holding one sub-folder per project (`~/.claude/projects`). */
  projectsDir: string;
  /** Only this project folder; every project folder under `projectsDir` when absent. */
  projectDir?: string;
  /** Send everything to this graph; by default each project has its own. */
  graph?: string;
  url: string;
  key: string;
  /** Send what exists, then return; otherwise follow the files until `signal` aborts. */
  once: boolean;
  fromStart: boolean;
  pollMs: number;
  /** Snapshots go to `<dataDir>/watch/<graph>/<project>.json`. */
  dataDir: string;
  /** Base of viewer addresses: `<viewerBase>/graphs/gph_<graph>`. */
  viewerBase: string;
  limits?: ReadLimits;
  /** Attempts per batch on network errors, 5xx and 429 (default: 8 with --once, unbounded otherwise). */
  maxAttempts?: number;
}

export function viewerUrl(base: string, graphKey: string): string {
  return `${base.replace(/\/+$/, '')}/graphs/gph_${graphKey}`;
}

/** Watches Claude Code project folders and streams their transcripts into graphs. */
export class WatchRunner<S> {
  private readonly watchers = new Map<string, ProjectWatcher<S>>();
  private readonly senders = new Map<string, EventSender>();
  private readonly client: IngestClient;

  constructor(
    private readonly adapter: TranscriptAdapter<S>,
    private readonly options: WatchRunOptions,
    private readonly log: WatchLog,
  ) {
    this.client = new IngestClient({
      url: options.url,
      key: options.key,
      maxAttempts: options.maxAttempts ?? (options.once ? 8 : Number.POSITIVE_INFINITY),
      onRetry: (r) =>
        log.warn(
          `ingest not answering (${r.reason}); retry ${r.attempt} in ${Math.round(r.delayMs)} ms`,
        ),
    });
  }

  /** Runs until done (`once`) or until `signal` aborts; returns what was sent per graph. */
  async run(signal: AbortSignal): Promise<Map<string, SendTotals>> {
    await this.discover();
    await this.syncAll(signal);
    if (this.options.once) {
      for (const watcher of this.watchers.values()) await watcher.finish();
      return this.totals();
    }
    const changes = new ChangeSignal(
      this.options.projectDir ?? this.options.projectsDir,
      this.options.pollMs,
    );
    changes.start();
    try {
      while (!signal.aborted) {
        await changes.next(signal);
        if (signal.aborted) break;
        await this.discover();
        await this.syncAll(signal);
      }
    } finally {
      changes.close();
    }
    return this.totals();
  }

  private async syncAll(signal: AbortSignal): Promise<void> {
    for (const watcher of this.watchers.values()) {
      if (signal.aborted) return;
      const before = { ...watcher.totals };
      try {
        await watcher.sync(signal);
      } catch (err) {
        if (err instanceof IngestRequestError) throw err; // a bad key or a taken graph key needs the user
        this.log.warn(`${watcher.dir}: ${(err as Error).message}`);
        continue;
      }
      const sent = watcher.totals.sent - before.sent;
      if (sent > 0 && !this.options.once) {
        this.log.info(
          `${basename(watcher.dir)}: sent ${sent} events (${watcher.totals.accepted - before.accepted} new)`,
        );
      }
    }
  }

  /** Finds project folders (new ones appear while Claude Code runs) and prepares their watchers. */
  private async discover(): Promise<void> {
    const dirs = this.options.projectDir
      ? [this.options.projectDir]
      : (await listSubdirectories(this.options.projectsDir)).map((name) =>
          join(this.options.projectsDir, name),
        );
    for (const dir of dirs) {
      if (this.watchers.has(dir)) continue;
      const project = graphKeyFor(basename(dir));
      const graphKey = this.options.graph ?? project;
      let sender = this.senders.get(graphKey);
      if (!sender) {
        sender = new EventSender(graphKey, this.client, this.log);
        this.senders.set(graphKey, sender);
        this.log.info(
          `Sharing ${dir} as graph ${graphKey}: ${viewerUrl(this.options.viewerBase, graphKey)}`,
        );
      }
      const store = new WatchStateStore(
        join(this.options.dataDir, 'watch', graphKey, `${project}.json`),
        adapterId(this.adapter),
      );
      const watcher = new ProjectWatcher({
        dir,
        adapter: this.adapter,
        sender,
        store,
        log: this.log,
        fromStart: this.options.fromStart,
        ...(this.options.limits ? { limits: this.options.limits } : {}),
      });
      await watcher.init();
      this.watchers.set(dir, watcher);
    }
  }

  private totals(): Map<string, SendTotals> {
    const byGraph = new Map<string, SendTotals>();
    for (const watcher of this.watchers.values()) {
      const key = this.options.graph ?? graphKeyFor(basename(watcher.dir));
      const sum = byGraph.get(key) ?? emptyTotals();
      for (const field of ['sent', 'accepted', 'duplicates', 'skipped'] as const)
        sum[field] += watcher.totals[field];
      byGraph.set(key, sum);
    }
    return byGraph;
  }
}
