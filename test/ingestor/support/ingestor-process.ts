import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from './ingestor-harness';
import { freePort } from '../../support/free-port';
import { TEST_METRICS_TOKEN } from '../../support/metrics-token';

export { freePort };

const MAIN = path.resolve(__dirname, '../../../apps/ingestor/dist/main.js');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The built ingestor (`node apps/ingestor/dist/main.js`) as a child process on its own port. */
export class IngestorProcess {
  private readonly output: string[] = [];
  readonly exited: Promise<Exit>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString());
      if (this.output.length > 200) this.output.shift();
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts it and resolves once /healthz answers. */
  static async start(env: {
    databaseUrl: string;
    queuePrefix: string;
    logLevel?: string;
  }): Promise<IngestorProcess> {
    if (!existsSync(MAIN))
      throw new Error(`${MAIN} is missing: build first (pnpm build, or npx tsc -b apps/ingestor)`);
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        DATABASE_URL: env.databaseUrl,
        QUEUE_PREFIX: env.queuePrefix,
        METRICS_TOKEN: TEST_METRICS_TOKEN,
        INGEST_PORT: String(port),
        LOG_LEVEL: env.logLevel ?? process.env.TEST_LOG_LEVEL ?? 'warn',
        // these processes are for fault tests, which re-send whole runs at once: the per-account
        // ingest limit (ingest-rate-limit.e2e-spec.ts) is out of their way
        INGEST_EVENTS_PER_SECOND: '1000000',
        INGEST_EVENTS_BURST: '1000000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc = new IngestorProcess(child, port);
    let exit: Exit | undefined;
    void proc.exited.then((e) => (exit = e));
    await waitFor('the ingestor to answer /healthz', async () => {
      if (exit)
        throw new Error(
          `ingestor exited (${JSON.stringify(exit)}) before serving:\n${proc.logs()}`,
        );
      return fetch(`${proc.baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    });
    return proc;
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  logs(): string {
    return this.output.join('');
  }
}
