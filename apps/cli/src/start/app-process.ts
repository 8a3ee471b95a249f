import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { CliError } from '../cli-error';

/** One of the service's apps (API, ingestor) running as a child process, logging to a file. */
export class AppProcess {
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private stopping = false;

  constructor(
    readonly name: string,
    script: string,
    env: NodeJS.ProcessEnv,
    readonly logFile: string,
  ) {
    if (!existsSync(script))
      throw new CliError(`${script} is missing; build first with \`pnpm build\`.`);
    const log = createWriteStream(logFile, { flags: 'a' });
    // Own process group: Ctrl-C reaches only this CLI, which then stops the apps in order.
    this.child = spawn(process.execPath, [script], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child.stdout!.pipe(log);
    this.child.stderr!.pipe(log);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve(signal ? null : code)),
    );
    process.once('exit', this.killNow);
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Whether it stopped without being asked to. */
  get crashed(): boolean {
    return !this.stopping && !this.running;
  }

  /** SIGTERM (the apps drain and exit), then SIGKILL after `timeoutMs`. */
  async stop(timeoutMs = 15_000): Promise<void> {
    this.stopping = true;
    process.removeListener('exit', this.killNow);
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }

  lastLogLines(count = 8): string {
    try {
      return readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-count).join('\n');
    } catch {
      return '';
    }
  }

  private readonly killNow = () => {
    if (this.running) this.child.kill('SIGKILL');
  };
}

/** Resolves once `url` answers HTTP at all (any status); fails if the app exits or time runs out. */
export async function waitUntilServing(
  app: AppProcess,
  url: string,
  timeoutMs = 60_000,
): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (!app.running) break;
    const answered = await fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
      async (res) => (await res.arrayBuffer(), true),
      () => false,
    );
    if (answered) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!app.running) {
    // The apps print one "<name> failed to start: <cause and fix>" line: that is the reason.
    const reason = app
      .lastLogLines(20)
      .split('\n')
      .reverse()
      .find((l) => l.startsWith(`${app.name} failed to start: `));
    if (reason) throw new CliError(`${reason} (log: ${app.logFile})`);
  }
  const why = app.running
    ? `did not answer ${url} within ${timeoutMs / 1000} s`
    : 'exited during start-up';
  throw new CliError(
    `The ${app.name} ${why}. Last lines of ${app.logFile}:\n${app.lastLogLines()}`,
  );
}
