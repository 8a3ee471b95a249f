import { Config, ConfigError, loadConfig } from '@graph-history/config';
import { CliError } from './cli-error';
import { withRunningService } from './start/service-record';

export type OutputStream = NodeJS.WritableStream & { isTTY?: boolean };

/** Where a CLI run reads its environment and writes its output: the process, or a test's buffers. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: OutputStream;
  stderr: OutputStream;
}

export const processIo = (): CliIo => ({
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});

/**
 * The validated settings of a command. Unless `ownService` (the `start` command itself), settings
 * the environment leaves unset come from the `start` running from the same DATA_DIR, if any.
 */
export function cliConfig(io: CliIo, { ownService = false } = {}): Config {
  try {
    return loadConfig(ownService ? io.env : withRunningService(io.env));
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, 78);
    throw err;
  }
}

/** What every `--json` of the CLI prints: one JSON object per line (JSON lines), none for none. */
export const jsonLines = (items: readonly unknown[]): string =>
  items.map((item) => `${JSON.stringify(item)}\n`).join('');

/** Writes text, waiting for the stream to drain when its buffer is full (large `simulate` outputs). */
export function write(stream: OutputStream, text: string): Promise<void> | void {
  if (!stream.write(text)) return new Promise((resolve) => stream.once('drain', () => resolve()));
}
