import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from './wait';

const REPO = join(__dirname, '..', '..');

/**
 * A built app (`node apps/<app>/dist/main.js`) as a child process, ready once /healthz answers.
 * kill(signal) lets crash tests stop it hard.
 */
export class ServiceProcess {
  private readonly output: string[] = [];
  private exited = false;

  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString());
      if (this.output.length > 1000) this.output.shift();
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('exit', () => (this.exited = true));
  }

  static async start(
    app: 'api' | 'ingestor',
    port: number,
    env: NodeJS.ProcessEnv,
  ): Promise<ServiceProcess> {
    const main = join(REPO, 'apps', app, 'dist', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build first (pnpm build)`);
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc = new ServiceProcess(child, `http://127.0.0.1:${port}`);
    await waitUntil(
      `${app} to answer /healthz`,
      async () => {
        if (proc.exited) throw new Error(`${app} exited before serving:\n${proc.logs()}`);
        return fetch(`${proc.baseUrl}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      },
      30_000,
    );
    return proc;
  }

  /** Whether the process is still running. */
  get alive(): boolean {
    return !this.exited;
  }

  /** Sends `signal` and resolves once the process has exited. */
  async kill(signal: NodeJS.Signals): Promise<void> {
    if (this.exited) return;
    const gone = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill(signal);
    await gone;
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.kill('SIGTERM');
    clearTimeout(timer);
  }

  logs(): string {
    return this.output.join('');
  }
}
