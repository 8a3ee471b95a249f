import type { OutputStream } from '../io';

/** Where the watcher reports: progress on stdout, problems on stderr, one line each. */
export interface WatchLog {
  info(message: string): void;
  warn(message: string): void;
}

export function streamLog(stdout: OutputStream, stderr: OutputStream): WatchLog {
  return {
    info: (message) => stdout.write(`${message}\n`),
    warn: (message) => stderr.write(`warn: ${message}\n`),
  };
}
