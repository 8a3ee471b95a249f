import { Command } from 'commander';
import type { Notice, NoticeType } from '@graph-history/client';
import { NOTICE_TYPES } from '@graph-history/domain';
import { CliError } from '../cli-error';
import { CliIo, write } from '../io';
import { execForNotice } from '../read/notice-exec';
import { noticeGapLine, noticeLine } from '../read/notice-line';
import { graphIdOf, READ_OPTIONS, ReadOptions, readClient, reading } from '../read/read-client';
import { integerIn } from './option-parsers';

interface NoticesOptions extends ReadOptions {
  graph?: string;
  type?: string;
  limit: number;
  follow?: boolean;
  exec?: string;
  json?: boolean;
}

export function registerNoticesCommand(program: Command, io: CliIo): void {
  program
    .command('notices')
    .description(
      'Print the notices of your shares (an agent needs you, failed, deadlocked; a session ended; a graph quarantined): the newest, or with --follow each new one as it comes',
    )
    .option('--graph <graph>', 'only this graph’s (id gph_… or key)')
    .option('--type <types>', `only these types, comma-separated: ${NOTICE_TYPES.join(', ')}`)
    .option(
      '--limit <n>',
      'without --follow: how many of the newest to print',
      integerIn(1, 1_000),
      20,
    )
    .option('--follow', 'print each new notice as it comes, until interrupted')
    .option(
      '--exec <command>',
      'run this shell command per notice printed: the notice JSON on stdin, GH_NOTICE_* variables (ID, TYPE, CREATED, GRAPH_ID, NODE_ID, EVENT_ID, URL, TITLE, MESSAGE) in its environment',
    )
    .option('--json', 'print each notice as one JSON line')
    .option(...READ_OPTIONS.key)
    .option(...READ_OPTIONS.apiUrl)
    .action(async (opts: NoticesOptions) => {
      const session = readClient(io, opts);
      const { client } = session;
      const filters = {
        graph: opts.graph === undefined ? undefined : graphIdOf(opts.graph),
        type: opts.type === undefined ? undefined : typesOf(opts.type),
      };
      const show = async (n: Notice) => {
        await write(io.stdout, `${opts.json ? JSON.stringify(n) : noticeLine(n)}\n`);
        if (opts.exec === undefined) return;
        const status = await execForNotice(opts.exec, n, io.env);
        if (status !== 0)
          await write(io.stderr, `--exec: the command exited with ${status} for ${n.id}\n`);
      };
      await reading(session, async () => {
        if (!opts.follow) {
          const newest = await client.notices
            .list({ ...filters, limit: opts.limit })
            .toArray({ limit: opts.limit });
          for (const n of newest.reverse()) await show(n);
          return;
        }
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
        try {
          for await (const n of client.notices.stream({ ...filters, signal: stop.signal })) {
            if (n.object === 'notice_gap')
              await write(io.stdout, `${opts.json ? JSON.stringify(n) : noticeGapLine(n)}\n`);
            else await show(n);
          }
        } finally {
          process.removeListener('SIGINT', onSignal).removeListener('SIGTERM', onSignal);
        }
      });
    });
}

function typesOf(list: string): NoticeType[] {
  const types = list.split(',').map((t) => t.trim());
  const bad = types.find((t) => !(NOTICE_TYPES as readonly string[]).includes(t));
  if (bad !== undefined)
    throw new CliError(`--type: ${JSON.stringify(bad)} is not one of ${NOTICE_TYPES.join(', ')}.`);
  return types as NoticeType[];
}
