import { Config, ConfigError, loadConfig } from '@graph-history/config';
import { CliError } from './cli-error';

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

export function cliConfig(io: CliIo): Config {
  try {
    return loadConfig(io.env);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, 78);
    throw err;
  }
}

/** Writes text, waiting for the stream to drain when its buffer is full (large `simulate` outputs). */
export function write(stream: OutputStream, text: string): Promise<void> | void {
  if (!stream.write(text)) return new Promise((resolve) => stream.once('drain', () => resolve()));
}
