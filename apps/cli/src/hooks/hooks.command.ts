import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { type CliIo, cliConfig, processIo } from '../io';
import { ProjectGraphKeys } from '../watch/project-graph-keys';
import { GRAPH_KEY_PATTERN, claudeProjectName, expandHome } from '../watch/projects';
import {
  HOOK_EVENTS,
  HTTP_HOOK_EVENTS,
  httpHookHandler,
  ourHooks,
  withOurHooks,
  withoutOurHooks,
} from './claude-settings';
import { defaultHookInbox, hookCommand } from './hook-inbox-dir';
import { readSettings, settingsPath, writeSettings } from './settings-file';

interface HooksOptions {
  project?: string;
  settings?: string;
  inbox?: string;
  http?: boolean;
  url?: string;
  graph?: string;
  keyEnv?: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Where `--http` hooks post: the ingest URL, and the graph `watch` shares the project into (the
 * project's working directory's Claude Code folder name, keyed by this machine's watch secret),
 * unless `--graph` names one. A user-wide install has no project, so it needs `--graph`.
 */
async function httpTarget(opts: HooksOptions, io: CliIo) {
  const config = cliConfig(io);
  const url = opts.url ?? config.GRAPH_HISTORY_URL;
  if (!URL.canParse(url)) throw new CliError(`--url: ${JSON.stringify(url)} is not a URL.`);
  const keyEnv = opts.keyEnv ?? 'GRAPH_HISTORY_KEY';
  if (!ENV_NAME.test(keyEnv))
    throw new CliError(`--key-env: ${JSON.stringify(keyEnv)} is not an environment variable name.`);
  let graph = opts.graph;
  if (graph === undefined && opts.project !== undefined) {
    const name = claudeProjectName(resolve(expandHome(opts.project)));
    graph = await new ProjectGraphKeys(resolve(config.DATA_DIR)).keyFor(name);
  }
  if (graph === undefined)
    throw new CliError(
      '--http needs the graph to post to: --project <dir> (the graph `watch` shares that project into) or --graph <key>.',
    );
  if (!GRAPH_KEY_PATTERN.test(graph))
    throw new CliError(
      `--graph: ${JSON.stringify(graph)} is not a graph key (1-64 of A-Z a-z 0-9 _ -).`,
    );
  return { url, graph, keyEnv };
}
function targetFile(opts: HooksOptions, io: CliIo): string {
  if (opts.settings !== undefined) return resolve(expandHome(opts.settings));
  const home = io.env['HOME'] ?? homedir();
  return settingsPath(
    home,
    opts.project === undefined ? undefined : resolve(expandHome(opts.project)),
  );
}

const where = (cmd: Command) =>
  cmd
    .option('--project <dir>', "a project's .claude/settings.json instead of the user's")
    .option('--settings <file>', 'this settings file instead');

export function registerHooksCommand(program: Command, io: CliIo = processIo()): void {
  const hooks = program
    .command('hooks')
    .description(
      'Claude Code hooks that tell a running `watch` at once (spawns, ends, prompts), or with --http the ingestor itself',
    );

  where(hooks.command('install'))
    .description('add the hooks to Claude Code settings (again: replaces them)')
    .option('--inbox <dir>', 'the folder `watch --hooks-dir` reads (default: per user)')
    .option('--http', 'hooks that post to the ingestor itself: no `watch` needed')
    .option('--url <url>', 'with --http: ingest base URL (default: GRAPH_HISTORY_URL)')
    .option(
      '--graph <key>',
      "with --http: the graph (default: the --project's, as `watch` derives it)",
    )
    .option(
      '--key-env <name>',
      'with --http: the environment variable Claude Code reads the secret key from',
      'GRAPH_HISTORY_KEY',
    )
    .action(async (opts: HooksOptions) => {
      const file = targetFile(opts, io);
      const target = opts.http ? await httpTarget(opts, io) : undefined;
      const inbox = resolve(expandHome(opts.inbox ?? defaultHookInbox(io.env)));
      const http = target && httpHookHandler(target.url, target.graph, target.keyEnv);
      const via = http && target ? `posting to ${http.url}` : `handing over through ${inbox}`;
      const before = await readSettings(file);
      const after = withOurHooks(before, http ?? hookCommand(inbox));
      const had = ourHooks(before);
      if (had.join('\n') === ourHooks(after).join('\n')) {
        io.stdout.write(
          `The graph-history hooks are already installed in ${file} (${via}); nothing changed.\n`,
        );
        return;
      }
      await writeSettings(file, after);
      const events = (target ? HTTP_HOOK_EVENTS : HOOK_EVENTS).map((h) => h.event).join(', ');
      io.stdout.write(
        `${had.length > 0 ? 'Updated' : 'Added'} graph-history hooks (${events}) ${had.length > 0 ? 'in' : 'to'} ${file}.\n` +
          (http && target
            ? `They post each hook to ${http.url} with the secret key in $${target.keyEnv}: start Claude Code with it set.\n`
            : `They hand each hook to a running \`graph-history watch\` through ${inbox}; they never block Claude Code.\n`),
      );
    });

  where(hooks.command('uninstall'))
    .description('remove exactly the hooks `hooks install` added')
    .action(async (opts: HooksOptions) => {
      const file = targetFile(opts, io);
      const before = await readSettings(file);
      const after = withoutOurHooks(before);
      if (after === before) {
        io.stdout.write(`No graph-history hooks in ${file}.\n`);
        return;
      }
      await writeSettings(file, after);
      io.stdout.write(`Removed the graph-history hooks from ${file}.\n`);
    });
}
