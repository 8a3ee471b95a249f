import { PassThrough } from 'node:stream';
import type { CliIo } from '@graph-history/cli/io';

/** A CliIo whose stdout and stderr are kept as text. */
export function captureIo(
  env: NodeJS.ProcessEnv,
): CliIo & { out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += String(d)));
  stderr.on('data', (d) => (err += String(d)));
  return { env, stdout, stderr, out: () => out, err: () => err };
}
