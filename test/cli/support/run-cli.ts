import { Writable } from 'node:stream';
import { runCli } from '@graph-history/cli/cli';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString('utf8');
    done();
  }
}

/** Runs the CLI in process with its own environment, capturing what it prints. */
export async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(args, { env, stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
