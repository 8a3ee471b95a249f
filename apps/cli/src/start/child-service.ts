import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';

export interface ChildCommand {
  file: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Run as this system user (e.g. Postgres, which refuses root). */
  user?: { uid: number; gid: number };
}

/** Children still running, killed if this process exits without stopping them. */
const live = new Set<ChildProcess>();
const killLive = () => live.forEach((c) => c.kill('SIGKILL'));

/** A server run as a child process, logging to a file, stopped with SIGTERM then SIGKILL. */
export class ChildService {
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private stopping = false;

  constructor(
    readonly name: string,
    command: ChildCommand,
    readonly logFile: string,
  ) {
    const log = createWriteStream(logFile, { flags: 'a' });
    // Own process group: Ctrl-C reaches only this CLI, which then stops its children in order.
    this.child = spawn(command.file, [...command.args], {
      env: command.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      ...command.user,
    });
    this.child.stdout!.pipe(log);
    this.child.stderr!.pipe(log);
    this.child.once('error', (err) => log.write(`${name}: ${err.message}\n`));
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve(signal ? null : code)),
    );
    live.add(this.child);
    if (live.size === 1 && !process.listeners('exit').includes(killLive))
      process.on('exit', killLive);
    this.child.once('exit', () => live.delete(this.child));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.pid !== undefined && this.child.exitCode === null && !this.child.signalCode;
  }

  /** Whether it stopped without being asked to. */
  get crashed(): boolean {
    return !this.stopping && !this.running;
  }

  /** `signal` (SIGTERM: the apps drain and exit), then SIGKILL after `timeoutMs`. */
  async stop(timeoutMs = 15_000, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    this.stopping = true;
    if (!this.running) return;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Sends a signal without waiting (faults: SIGKILL, SIGSTOP, SIGCONT). */
  signal(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  lastLogLines(count = 8): string {
    try {
      return readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-count).join('\n');
    } catch {
      return '';
    }
  }
}
