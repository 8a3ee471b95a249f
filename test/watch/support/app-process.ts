import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..', '..');

/** A built app (`node apps/<app>/dist/main.js`) run as a child process until it answers /healthz. */
export class AppProcess {
  private readonly output: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString());
      if (this.output.length > 200) this.output.shift();
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
  }

  static async start(
    app: 'api' | 'ingestor',
    port: number,
    env: NodeJS.ProcessEnv,
  ): Promise<AppProcess> {
    const main = join(REPO, 'apps', app, 'dist', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build first (pnpm build)`);
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc = new AppProcess(child, `http://127.0.0.1:${port}`);
    let exited = false;
    child.once('exit', () => (exited = true));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (exited) throw new Error(`${app} exited before serving:\n${proc.logs()}`);
      if (
        await fetch(`${proc.baseUrl}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return proc;
      if (Date.now() > deadline) throw new Error(`${app} did not answer /healthz:\n${proc.logs()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  logs(): string {
    return this.output.join('');
  }
}
