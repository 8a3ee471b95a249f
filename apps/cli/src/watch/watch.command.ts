import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type TimedLine, claudeCodeAdapter, codexAdapter } from '@graph-history/adapters';
import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { CodexFinder } from './codex-finder';
import { codexTarget, defaultCodexSessionsDir } from './codex-projects';
import { finderProviderPath, finderRunner, isFinderProvider } from './finder-providers';
import { PROVIDERS, PROVIDER_LABELS, type Provider, providersFound } from './watch-providers';
import { assertWatchableDir } from './dir-advice';
import { integerIn } from '../commands/option-parsers';
import { type CliIo, cliConfig, processIo } from '../io';
import type { SendTotals } from './event-sender';
import { GRAPH_KEY_PATTERN, defaultProjectsDir, expandHome, resolveProjectDir } from './projects';
import { streamLog } from './watch-log';
import { defaultHookInbox } from '../hooks/hook-inbox-dir';
import { StatusLine } from './status-line';
import { DEFAULT_WINDOW_MS, WatchRunner, type WatchRunOptions } from './watch-runner';
import type { WatchLog } from './watch-log';
import { type WatchStats, emptyStats } from './watch-stats';

interface WatchCommandOptions {
  provider?: Provider;
  dir?: string;
  project?: string;
  graph?: string;
  url?: string;
  key?: string;
  once?: boolean;
  fromStart?: boolean;
  pollMs: number;
  windowMs: number;
  hooks: boolean;
  hooksDir?: string;
  teamsDir?: string;
  json?: boolean;
}

/** After SIGINT/SIGTERM the current pass gets this long to finish before the process exits. */
const STOP_GRACE_MS = 5_000;

function summary(totals: Map<string, SendTotals>): string {
  if (totals.size === 0) return 'No transcripts found.';
  return [...totals]
    .map(
      ([graph, t]) =>
        `graph ${graph}: ${t.sent} events sent, ${t.accepted} new, ${t.duplicates} already there${t.skipped ? `, ${t.skipped} refused and skipped` : ''}.`,
    )
    .join('\n');
}

/** What `watch` reads: the provider named, else every provider found on this machine. */
function providersOf(opts: WatchCommandOptions, io: CliIo): Provider[] {
  if (opts.provider !== undefined) return [opts.provider];
  // --dir and --project name Claude Code folders, as before there were other providers.
  if (opts.dir !== undefined || opts.project !== undefined) return ['claude-code'];
  return providersFound(io.env);
}

function runOptions(opts: WatchCommandOptions, io: CliIo): WatchRunOptions {
  const config = cliConfig(io);
  const key = opts.key ?? config.GRAPH_HISTORY_KEY;
  if (!key)
    throw new CliError(
      'No API key: pass --key or set GRAPH_HISTORY_KEY (create one with `keys create --account NAME`).',
    );
  const url = opts.url ?? config.GRAPH_HISTORY_URL;
  if (!URL.canParse(url)) throw new CliError(`--url: ${JSON.stringify(url)} is not a URL.`);
  if (opts.graph !== undefined && !GRAPH_KEY_PATTERN.test(opts.graph)) {
    throw new CliError(
      `--graph: ${JSON.stringify(opts.graph)} must be 1 to 64 of A-Z a-z 0-9 _ -.`,
    );
  }
  if (opts.provider === 'codex') {
    if (opts.project !== undefined)
      throw new CliError(
        '--project picks a Claude Code project; Codex sessions are shared per working directory already (use --graph to put them in one graph).',
      );
    const dir = resolve(expandHome(opts.dir ?? defaultCodexSessionsDir(io.env)));
    if (!existsSync(dir))
      throw new CliError(
        `No Codex sessions folder at ${dir}: run Codex once, or pass --dir with $CODEX_HOME/sessions or one rollout-….jsonl file.`,
      );
    return { ...common(opts, io, url, key), projectsDir: dir };
  }
  if (opts.provider !== undefined && isFinderProvider(opts.provider)) {
    const projectsDir = finderProviderPath(opts.provider, opts, io.env);
    return { ...common(opts, io, url, key), projectsDir };
  }
  const projectsDir = resolve(
    expandHome(opts.dir ?? defaultProjectsDir(io.env['HOME'] || undefined)),
  );
  const projectDir =
    opts.project === undefined ? undefined : resolveProjectDir(projectsDir, opts.project);
  const folder = projectDir ?? projectsDir;
  // A project's folder appears with its first session, so a live watch may wait for it.
  const mayAppearLater = !opts.once && projectDir !== undefined;
  if (!mayAppearLater) {
    const typed =
      opts.project !== undefined
        ? { flag: '--project' as const, value: opts.project }
        : opts.dir !== undefined
          ? { flag: '--dir' as const, value: opts.dir }
          : undefined;
    assertWatchableDir(folder, typed);
  }
  return {
    ...common(opts, io, url, key),
    projectsDir,
    ...(projectDir !== undefined ? { projectDir } : {}),
    ...(opts.hooks && opts.once !== true
      ? { hookInbox: resolve(expandHome(opts.hooksDir ?? defaultHookInbox(io.env))) }
      : {}),
    ...(opts.teamsDir !== undefined ? { teamsDir: resolve(expandHome(opts.teamsDir)) } : {}),
  };
}

/** Options every provider's run shares. */
function common(opts: WatchCommandOptions, io: CliIo, url: string, key: string) {
  const config = cliConfig(io);
  return {
    ...(opts.graph !== undefined ? { graph: opts.graph } : {}),
    url,
    key,
    once: opts.once === true,
    fromStart: opts.fromStart === true,
    pollMs: opts.pollMs,
    windowMs: opts.windowMs,
    dataDir: resolve(config.DATA_DIR),
    // PUBLIC_URL, else the read API the CLI uses (GRAPH_HISTORY_API_URL, or the running `start`'s).
    viewerBase: (config.PUBLIC_URL ?? config.GRAPH_HISTORY_API_URL).replace(/\/+$/, ''),
  };
}

/** The runner of one provider; `several` when others run beside it (none found is no error). */
function runnerFor(
  provider: Provider,
  opts: WatchCommandOptions,
  io: CliIo,
  several: boolean,
  log: WatchLog,
  stats: WatchStats,
): WatchRunner<unknown, TimedLine> {
  const options = runOptions({ ...opts, provider }, io);
  if (provider === 'claude-code') {
    return new WatchRunner(
      claudeCodeAdapter,
      { ...options, optional: several },
      log,
      stats,
    ) as WatchRunner<unknown, TimedLine>;
  }
  const run = { ...options, optional: several };
  if (isFinderProvider(provider)) return finderRunner(provider, run, log, stats);
  const target = codexTarget(options.projectsDir);
  return new WatchRunner(
    codexAdapter,
    run,
    log,
    stats,
    new CodexFinder(target.dir, target.onlyRoot),
  ) as WatchRunner<unknown, TimedLine>;
}

/** One line: the sessions each provider watched has, when several are watched. */
function foundLine(
  providers: readonly Provider[],
  runners: readonly WatchRunner<unknown, TimedLine>[],
): string {
  const parts = providers.map((p, i) => {
    const n = runners[i]!.sessionsFound;
    return `${PROVIDER_LABELS[p]} ${n} session${n === 1 ? '' : 's'}`;
  });
  return `Watching ${providers.length} providers: ${parts.join(', ')}.`;
}

/** Stops the run on SIGINT/SIGTERM; a second signal, or a pass that will not finish, exits at once. */
function stopOnSignals(controller: AbortController): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    controller.abort();
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

export function registerWatchCommand(program: Command, io: CliIo = processIo()): void {
  program
    .command('watch')
    .description(
      'Share live Claude Code, Codex, Gemini CLI, Cursor and opencode sessions: follow their transcripts and send them as watch events',
    )
    .option(
      '--provider <name>',
      `only this provider, one of ${PROVIDERS.join(', ')} (default: every one found on this machine)`,
      (value: string): Provider => {
        if ((PROVIDERS as readonly string[]).includes(value)) return value as Provider;
        throw new CliError(
          `--provider: ${JSON.stringify(value)} is not one of ${PROVIDERS.join(', ')}.`,
        );
      },
    )
    .option(
      '--dir <path>',
      'the Claude Code projects folder (default: ~/.claude/projects), one project folder, or one session .jsonl file; with --provider codex: $CODEX_HOME/sessions (default ~/.codex/sessions) or one rollout file; with --provider gemini-cli: ~/.gemini/tmp (GEMINI_CLI_HOME moves it) or one project folder; with --provider cursor: ~/.cursor/projects or one project folder; with --provider opencode: its opencode.db (default $XDG_DATA_HOME/opencode/opencode.db) or the folder holding it',
    )
    .option(
      '--project <name|path>',
      'only this project: its folder name under --dir, or its working directory',
    )
    .option(
      '--graph <key>',
      'graph key to share into (default: the project folder name plus a tag only this machine can derive)',
    )
    .option(
      '--url <url>',
      'ingest base URL (default: GRAPH_HISTORY_URL, else http://127.0.0.1:3001)',
    )
    .option('--key <key>', 'secret API key (default: GRAPH_HISTORY_KEY)')
    .option('--once', 'send what the transcripts hold now, then exit')
    .option(
      '--from-start',
      'ignore the saved read positions and read every transcript again (safe: re-sent events are duplicates)',
    )
    .option(
      '--poll-ms <ms>',
      'polling interval behind file-system notifications',
      integerIn(50, 600_000),
      2_000,
    )
    .option(
      '--window-ms <ms>',
      'reorder window of the live tail: lines wait this long for earlier lines of other files',
      integerIn(0, 10_000),
      DEFAULT_WINDOW_MS,
    )
    .option(
      '--teams-dir <dir>',
      'Claude Code agent teams, read beside the sessions they lead (default: teams beside the projects folder)',
    )
    .option('--hooks-dir <dir>', 'where `hooks install` hooks hand over (default: per user)')
    .option('--no-hooks', 'do not take Claude Code hooks')
    .option('--json', 'print JSON lines (messages and status) instead of text')
    .action(async (opts: WatchCommandOptions) => {
      const once = opts.once === true;
      const providers = providersOf(opts, io);
      const stats = emptyStats();
      const mode = opts.json ? 'json' : io.stdout.isTTY ? 'tty' : 'plain';
      const status = new StatusLine(io.stdout, io.stderr, mode, stats);
      const log = once && !opts.json ? streamLog(io.stdout, io.stderr) : status;
      const several = providers.length > 1;
      const runners = providers.map((p) => runnerFor(p, opts, io, several, log, stats));
      const controller = new AbortController();
      const release = once ? () => undefined : stopOnSignals(controller);
      let finding = runners.length;
      const onFound = () => {
        finding -= 1;
        if (finding > 0) return;
        if (several) log.info(foundLine(providers, runners));
        if (!once) status.start();
      };
      try {
        const totals = await Promise.all(
          runners.map((r) =>
            r.run(controller.signal, onFound).catch((err: unknown) => {
              controller.abort(); // one provider's failure stops the others
              throw err;
            }),
          ),
        );
        status.stop();
        log.info(summary(mergeTotals(totals)));
        if (!once) log.info('watch stopped.');
      } finally {
        status.stop();
        release();
      }
    });
}

/** Totals per graph over every provider's run (providers of one project share its graph). */
function mergeTotals(runs: Map<string, SendTotals>[]): Map<string, SendTotals> {
  const out = new Map<string, SendTotals>();
  for (const run of runs) {
    for (const [graph, t] of run) {
      const sum = out.get(graph);
      out.set(
        graph,
        sum
          ? {
              sent: sum.sent + t.sent,
              accepted: sum.accepted + t.accepted,
              duplicates: sum.duplicates + t.duplicates,
              skipped: sum.skipped + t.skipped,
            }
          : { ...t },
      );
    }
  }
  return out;
}
