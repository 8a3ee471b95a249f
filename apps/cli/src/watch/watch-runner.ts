import { basename, dirname, join } from 'node:path';
import {
  type Announcement,
  type TimedLine,
  type TranscriptAdapter,
  adapterId,
  teamGroup,
} from '@graph-history/adapters';
import { CliError } from '../cli-error';
import { IngestClient, IngestRequestError } from '../ingest-client';
import { ChangeSignal, type WatchedDir } from './change-signal';
import { EventSender, type SendTotals } from './event-sender';
import { GraphTimeline } from './graph-timeline';
import { HookInbox } from './hook-inbox';
import type { ReadLimits } from './line-reader';
import type { FoundProject, ProjectFinder } from './project-finder';
import { ProjectGraphKeys } from './project-graph-keys';
import { defaultTeamsDir, teamFolders } from './team-folders';
import type { WatchLog } from './watch-log';
import { WatchStateStore } from './watch-state';
import { type WatchStats, emptyStats } from './watch-stats';
import { type WatchTarget, describeFound, projectDirs, resolveTarget } from './watch-target';

/** Default reorder window of a live tail (see GraphTimeline). */
export const DEFAULT_WINDOW_MS = 1_000;

export interface WatchRunOptions {
  /** What `--dir` names: the folder of projects, one project's folder, or one transcript file. */
  projectsDir: string;
  /** Only this project folder (`--project`). */
  projectDir?: string;
  /** Send everything to this graph; by default each project has its own. */
  graph?: string;
  url: string;
  key: string;
  /** Send what exists, then return; otherwise follow the files until `signal` aborts. */
  once: boolean;
  fromStart: boolean;
  pollMs: number;
  /** Reorder window of the live tail (default 1 s). */
  windowMs?: number;
  /** Snapshots go to `<dataDir>/watch/<graph>/timeline.json`. */
  dataDir: string;
  /** Base of viewer addresses: `<viewerBase>/graphs/gph_<graph>`. */
  viewerBase: string;
  limits?: ReadLimits;
  /** Attempts per batch on network errors, 5xx and 429 (default: 8 with --once, unbounded otherwise). */
  maxAttempts?: number;
  /** A live watch takes Claude Code hooks from this folder (see `hooks install`); none when absent. */
  hookInbox?: string;
  /** Claude Code agent teams (default: `teams` beside the folder of projects). */
  teamsDir?: string;
  /** Finding no sessions is no error (other providers are watched beside this one). */
  optional?: boolean;
}

/** Snapshot file of a provider's timeline: several providers may share one graph. */
export function snapshotFile(provider: string): string {
  return provider === 'claude-code' ? 'timeline.json' : `${provider}-timeline.json`;
}

export function viewerUrl(base: string, graphKey: string): string {
  return `${base.replace(/\/+$/, '')}/graphs/gph_${graphKey}`;
}

/**
 * Watches one provider's transcripts and streams them into graphs, one timeline per graph.
 * Projects are Claude Code's project folders, or what a `finder` groups (Codex).
 */
export class WatchRunner<S, P extends TimedLine> {
  private readonly timelines = new Map<string, GraphTimeline<S, P>>();
  private readonly client: IngestClient;
  private readonly graphKeys: ProjectGraphKeys;
  private target: WatchTarget | undefined;
  private changes: ChangeSignal | undefined;
  private found = 0;

  constructor(
    private readonly adapter: TranscriptAdapter<S, P>,
    private readonly options: WatchRunOptions,
    private readonly log: WatchLog,
    readonly stats: WatchStats = emptyStats(),
    private readonly finder?: ProjectFinder,
  ) {
    this.graphKeys = new ProjectGraphKeys(options.dataDir);
    this.client = new IngestClient({
      url: options.url,
      key: options.key,
      maxAttempts: options.maxAttempts ?? (options.once ? 8 : Number.POSITIVE_INFINITY),
      onRetry: (r) =>
        log.warn(
          `ingest not answering (${r.reason}); retry ${r.attempt} in ${Math.round(r.delayMs)} ms` +
            (r.attempt === 1 && r.unreachable
              ? ': is `pnpm start` running? If the ingestor listens elsewhere, pass --url or set GRAPH_HISTORY_URL.'
              : ''),
        ),
    });
  }

  /**
   * Runs until done (`once`) or until `signal` aborts; returns what was sent per graph. `onFound`
   * runs once the sessions found at start were reported (a status line starts there).
   */
  async run(signal: AbortSignal, onFound?: () => void): Promise<Map<string, SendTotals>> {
    await this.discover();
    await this.reportFound(); // lists the sessions each graph follows, which teams need
    onFound?.();
    await this.discoverTeams();
    await this.syncAll(signal);
    if (this.options.once) {
      for (const timeline of this.timelines.values()) await timeline.finish();
      return this.totals();
    }
    const watched: WatchedDir = this.finder?.shallow
      ? { dir: this.watchedDir(), recursive: false }
      : this.watchedDir();
    const dirs = [watched, this.teamsDir()].filter((d): d is WatchedDir => d !== undefined);
    const changes = new ChangeSignal(dirs, this.options.pollMs);
    this.changes = changes;
    changes.start();
    const inbox = this.options.hookInbox
      ? new HookInbox(this.options.hookInbox, (a) => void this.announce(a), this.log)
      : undefined;
    if (inbox && (await inbox.start())) this.log.info(`Taking Claude Code hooks from ${inbox.dir}`);
    try {
      while (!signal.aborted) {
        await changes.next(signal, this.nextDeadline());
        if (signal.aborted) break;
        await inbox?.scan();
        await this.discover();
        await this.syncAll(signal);
      }
    } finally {
      await inbox?.close();
      changes.close();
      this.changes = undefined;
    }
    return this.totals();
  }

  /** Sessions found when the run started. */
  get sessionsFound(): number {
    return this.found;
  }

  /**
   * A Claude Code hook's payload: the graph whose folder holds its transcript reads that folder
   * at once and sends what the hook says ahead of the transcript. False when no graph follows it.
   */
  announce(announcement: Announcement): boolean {
    this.stats.hooks += 1;
    const path = announcement.payload['transcript_path'];
    if (typeof path !== 'string') return false;
    const dir = dirname(path);
    const timeline = [...this.timelines.values()].find((t) => t.owns(dir));
    if (!timeline) return false;
    timeline.announce(announcement);
    this.changes?.notify();
    return true;
  }

  private teamsDir(): string | undefined {
    if (this.finder) return undefined;
    return this.options.teamsDir ?? (this.target ? defaultTeamsDir(this.target) : undefined);
  }

  private watchedDir(): string {
    return (
      this.finder?.dir ?? this.options.projectDir ?? this.target?.dir ?? this.options.projectsDir
    );
  }

  private nextDeadline(): number | undefined {
    const deadlines = [...this.timelines.values()]
      .map((t) => t.nextDeadline())
      .filter((d): d is number => d !== undefined);
    return deadlines.length > 0 ? Math.min(...deadlines) : undefined;
  }

  private async reportFound(): Promise<void> {
    for (const timeline of this.timelines.values()) await timeline.listFiles();
    const sessions = [...this.timelines.values()].reduce((n, t) => n + t.sessionCount, 0);
    this.stats.sessions = sessions;
    this.found = this.finder ? this.finder.sessions : sessions;
    if (this.finder) return this.reportFinder(this.finder);
    const target = this.target;
    if (!target) return;
    const projects = [...this.timelines.values()].reduce((n, t) => n + t.sources.length, 0);
    if (sessions > 0) {
      this.log.info(describeFound(target, sessions, projects));
      return;
    }
    const message = `No Claude Code sessions found in ${target.kind === 'session' ? target.file : target.dir}.`;
    if (this.options.optional) return this.log.info(message);
    if (this.options.once) throw new CliError(message);
    this.log.warn(`${message} Waiting for some to appear.`);
  }

  private reportFinder(finder: ProjectFinder): void {
    if (finder.sessions > 0) return this.log.info(finder.describe());
    const message = `No ${finder.label} sessions found in ${finder.dir}.`;
    if (this.options.optional) return this.log.info(message);
    if (this.options.once) throw new CliError(message);
    this.log.warn(`${message} Waiting for some to appear.`);
  }

  private async syncAll(signal: AbortSignal): Promise<void> {
    for (const timeline of this.timelines.values()) {
      if (signal.aborted) return;
      const before = timeline.totals.sent;
      try {
        await timeline.sync({ drain: this.options.once, signal });
      } catch (err) {
        if (err instanceof IngestRequestError) throw err; // a bad key or a taken graph key needs the user
        this.stats.errors += 1;
        this.log.warn(`graph ${timeline.graphKey}: ${(err as Error).message}`);
        continue;
      }
      const sent = timeline.totals.sent - before;
      if (sent > 0 && !this.options.once) {
        this.log.info(`graph ${timeline.graphKey}: sent ${sent} events`);
      }
    }
    this.stats.sessions = [...this.timelines.values()].reduce((n, t) => n + t.sessionCount, 0);
  }

  private async resolve(): Promise<WatchTarget | undefined> {
    if (this.options.projectDir !== undefined) {
      return { kind: 'project', dir: this.options.projectDir };
    }
    return resolveTarget(this.options.projectsDir, this.adapter);
  }

  /** Finds project folders (new ones appear while Claude Code runs) and gives each its graph. */
  private async discover(): Promise<void> {
    if (this.finder) {
      for (const found of await this.finder.find()) await this.addProject(found);
      return;
    }
    // An empty folder may yet become a project (a transcript) or a folder of projects (a folder).
    if (this.target?.kind === 'projects' && this.timelines.size === 0) this.target = undefined;
    this.target ??= await this.resolve();
    if (!this.target) return;
    await this.discoverProjects(this.target);
    await this.discoverTeams();
  }

  private async discoverProjects(target: WatchTarget): Promise<void> {
    for (const dir of await projectDirs(target)) {
      if ([...this.timelines.values()].some((t) => t.owns(dir))) continue;
      await this.addProject({
        name: basename(dir),
        source: { dir, ...(target.kind === 'session' ? { group: target.group } : {}) },
      });
    }
  }

  /** Gives a project its graph's timeline (made on first use) and reads its files there. */
  private async addProject(found: FoundProject): Promise<void> {
    const { name, source } = found;
    if ([...this.timelines.values()].some((t) => t.sources.includes(source))) return;
    const graphKey = this.options.graph ?? (await this.graphKeys.keyFor(name));
    let timeline = this.timelines.get(graphKey);
    if (!timeline) {
      timeline = new GraphTimeline<S, P>({
        graphKey,
        adapter: this.adapter,
        sender: new EventSender(graphKey, this.client, this.log),
        store: new WatchStateStore(
          join(this.options.dataDir, 'watch', graphKey, snapshotFile(this.adapter.provider)),
          adapterId(this.adapter),
        ),
        log: this.log,
        stats: this.stats,
        fromStart: this.options.fromStart,
        windowMs: this.options.windowMs ?? DEFAULT_WINDOW_MS,
        ...(this.options.limits ? { limits: this.options.limits } : {}),
      });
      await timeline.init();
      this.timelines.set(graphKey, timeline);
      this.log.info(
        `Sharing ${found.what ?? source.dir} as graph ${graphKey}: ${viewerUrl(this.options.viewerBase, graphKey)}`,
      );
    }
    timeline.addSource(source);
  }

  /**
   * A team's files feed the graph that follows its lead session, as of the files last listed (a
   * session that appears with its team is matched at the next pass).
   */
  private async discoverTeams(): Promise<void> {
    const teamsDir = this.teamsDir();
    if (teamsDir === undefined) return;
    const timelines = [...this.timelines.values()];
    const read = (team: string) => timelines.some((t) => t.hasSource(teamsDir, teamGroup(team)));
    for (const { team, leadSessionId } of await teamFolders(teamsDir, read)) {
      const timeline = timelines.find((t) => t.followsSession(leadSessionId));
      if (!timeline) continue;
      timeline.addSource({ dir: teamsDir, group: teamGroup(team), team: true });
      this.log.info(`Reading agent team ${team} into graph ${timeline.graphKey}`);
    }
  }

  private totals(): Map<string, SendTotals> {
    return new Map([...this.timelines].map(([key, t]) => [key, { ...t.totals }]));
  }
}
