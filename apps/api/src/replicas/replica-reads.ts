import type { FastifyInstance } from 'fastify';
import {
  GraphProgress,
  PooledDb,
  ReplicaProgressRepository,
  ReplicaRouting,
} from '@graph-history/db';
import { ReadNeed, readNeed } from './read-need';

const STEP_MS = 20;
const HEALTH_EVERY_MS = 500;
const HEALTH_TIMEOUT_MS = 300;

interface Replica {
  db: PooledDb;
  progress: ReplicaProgressRepository;
  healthy: boolean;
}

/**
 * Sends each read to a streaming replica when that cannot show an older state than the client
 * asked for, else to the primary (docs/architecture.md, "Reads from replicas"): reads of now go
 * to a replica (round robin over the healthy ones) and may be as old as its lag; a read `as_of`
 * an event (or with an event cursor) goes to a replica once it has applied that event, waiting up
 * to `maxWaitMs`, else to the primary; `as_of` a time likewise once the replica holds an event
 * after that time or all the primary holds. Replicas are checked every 0.5 s; one that does not
 * answer gets no reads until it does.
 */
export class ReplicaReads {
  private readonly replicas: Replica[];
  private readonly primaryProgress: ReplicaProgressRepository;
  private next = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly routing: ReplicaRouting,
    private readonly maxWaitMs: number,
  ) {
    this.replicas = routing.replicas.map((db) => ({
      db,
      progress: new ReplicaProgressRepository(db),
      healthy: true,
    }));
    this.primaryProgress = new ReplicaProgressRepository(routing.primary);
  }

  /** Every request of `fastify` runs on the database `choose` picks; health checks start. */
  install(fastify: FastifyInstance): void {
    fastify.addHook('onRequest', (req, _reply, done) => {
      this.choose(req.url).then(
        (db) => this.routing.run(db, done),
        () => this.routing.run(this.routing.primary, done),
      );
    });
    fastify.addHook('onClose', async () => {
      if (this.timer) clearInterval(this.timer);
      await this.routing.close();
    });
    this.timer = setInterval(() => void this.checkHealth(), HEALTH_EVERY_MS);
    this.timer.unref();
  }

  /** `read` on the database a request to `url` would read from (reads made outside requests). */
  async runAs<T>(url: string, read: () => Promise<T>): Promise<T> {
    const db = await this.choose(url).catch(() => this.routing.primary);
    return this.routing.run(db, read);
  }

  async choose(url: string): Promise<PooledDb> {
    const need = readNeed(url);
    if (need.kind === 'primary') return this.routing.primary;
    const replica = this.pick();
    if (!replica) return this.routing.primary;
    if (need.kind === 'any') return replica.db;
    try {
      return (await this.caughtUp(replica, need)) ? replica.db : this.routing.primary;
    } catch {
      replica.healthy = false;
      return this.routing.primary;
    }
  }

  /** Whether the replica holds what `need` asks for, waiting for it up to maxWaitMs. */
  private async caughtUp(replica: Replica, need: Exclude<ReadNeed, { kind: 'any' | 'primary' }>) {
    const deadline = Date.now() + this.maxWaitMs;
    let primarySeq: number | null = null;
    for (;;) {
      const p =
        need.kind === 'event'
          ? await replica.progress.byGraphId(need.graphId)
          : await replica.progress.byGraphKey(need.graphKey);
      if (p && need.kind === 'event' && p.appliedSeq >= need.seq) return true;
      if (need.kind === 'time') {
        if (p && p.lastEvent !== null && p.lastEvent > need.time) return true;
        primarySeq ??= (await this.primaryProgress.byGraphKey(need.graphKey))?.appliedSeq ?? 0;
        if (covers(p, primarySeq)) return true;
      }
      if (Date.now() + STEP_MS > deadline) return false;
      await new Promise((r) => setTimeout(r, STEP_MS));
    }
  }

  private pick(): Replica | null {
    for (let i = 0; i < this.replicas.length; i++) {
      const r = this.replicas[this.next++ % this.replicas.length]!;
      if (r.healthy) return r;
    }
    return null;
  }

  private async checkHealth(): Promise<void> {
    await Promise.all(
      this.replicas.map(async (r) => {
        r.healthy = await r.progress.answers(HEALTH_TIMEOUT_MS);
      }),
    );
  }
}

const covers = (p: GraphProgress | null, primarySeq: number): boolean =>
  (p?.appliedSeq ?? 0) >= primarySeq;
