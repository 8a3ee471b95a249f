import { INGESTOR_NODE_FLAGS } from '@graph-history/config';
import { ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { Logger } from '@nestjs/common';

/** The worker-only entry point, next to this file's directory in the build. */
const WORKER_MAIN = path.join(__dirname, '..', 'apply-worker-main.js');

/** A worker that cannot start is not restarted in a tight loop. */
const RESPAWN_DELAY_MS = 1_000;

/**
 * The APPLY_PROCESSES - 1 worker-only processes the HTTP process starts so that applies use more
 * than one core, one per apply shard 1, 2, … (this process takes shard 0; see applyQueueName).
 * The per-graph job deduplication and the graph's apply lock keep one writer per graph, also
 * across the ingestors of a deployment. One that dies is started again; each one stops when this
 * process stops (or dies: its IPC channel closes).
 */
export class ApplyProcesses {
  private readonly logger = new Logger(ApplyProcesses.name);
  private readonly children = new Set<ChildProcess>();
  private stopping = false;

  /** `databaseUrl`: the resolved one, so that no worker starts an embedded Postgres of its own. */
  constructor(
    private readonly count: number,
    private readonly databaseUrl: string,
    /** The parent's, which workers must share even when it was derived from what they lack. */
    private readonly queuePrefix: string,
  ) {}

  start(): void {
    for (let shard = 1; shard <= this.count; shard++) this.spawn(shard);
  }

  /** Asks every worker process to drain and stop, and waits until they have exited. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.children].map((child) => {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        return exited;
      }),
    );
  }

  private spawn(shard: number): void {
    const child = fork(WORKER_MAIN, [String(shard)], {
      env: { ...process.env, DATABASE_URL: this.databaseUrl, QUEUE_PREFIX: this.queuePrefix },
      execArgv: [...process.execArgv, ...INGESTOR_NODE_FLAGS],
    });
    this.children.add(child);
    child.once('exit', (code, signal) => {
      this.children.delete(child);
      if (this.stopping) return;
      this.logger.error({ code, signal, shard }, 'apply worker process exited: starting another');
      setTimeout(() => {
        if (!this.stopping) this.spawn(shard);
      }, RESPAWN_DELAY_MS).unref();
    });
  }
}
