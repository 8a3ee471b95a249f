import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type CliIo, processIo } from '../io';
import { expandHome } from '../watch/projects';
import { HOOK_EVENTS, ourHooks, withOurHooks, withoutOurHooks } from './claude-settings';
import { defaultHookInbox, hookCommand } from './hook-inbox-dir';
import { readSettings, settingsPath, writeSettings } from './settings-file';

interface HooksOptions {
  project?: string;
  settings?: string;
  inbox?: string;
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
    .description('Claude Code hooks that tell a running `watch` at once (spawns, ends, prompts)');

  where(hooks.command('install'))
    .description('add the hooks to Claude Code settings (again: replaces them)')
    .option('--inbox <dir>', 'the folder `watch --hooks-dir` reads (default: per user)')
    .action(async (opts: HooksOptions) => {
      const file = targetFile(opts, io);
      const inbox = resolve(expandHome(opts.inbox ?? defaultHookInbox(io.env)));
      const before = await readSettings(file);
      const after = withOurHooks(before, hookCommand(inbox));
      const had = ourHooks(before);
      if (had.join('\n') === ourHooks(after).join('\n')) {
        io.stdout.write(
          `The graph-history hooks are already installed in ${file} (handing over through ${inbox}); nothing changed.\n`,
        );
        return;
      }
      await writeSettings(file, after);
      io.stdout.write(
        `${had.length > 0 ? 'Updated' : 'Added'} graph-history hooks (${HOOK_EVENTS.map((h) => h.event).join(', ')}) ${had.length > 0 ? 'in' : 'to'} ${file}.\n` +
          `They hand each hook to a running \`graph-history watch\` through ${inbox}; they never block Claude Code.\n`,
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
