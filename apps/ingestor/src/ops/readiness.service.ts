import { Inject, Injectable } from '@nestjs/common';
import type { RedisClient } from '@graph-history/http';
import { DatabaseHealthRepository } from '@graph-history/db';
import { PRODUCER_REDIS } from '../tokens';

export type CheckResult = 'ok' | 'unreachable';

export interface Readiness {
  ready: boolean;
  checks: { postgres: CheckResult; redis: CheckResult };
}

const CHECK_TIMEOUT_MS = 1_000;

/** Whether the ingestor can do its job: Postgres and Redis both answer within a second. */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly database: DatabaseHealthRepository,
    @Inject(PRODUCER_REDIS) private readonly redis: RedisClient,
  ) {}

  async check(): Promise<Readiness> {
    const [postgres, redis] = await Promise.all([
      probe(() => this.database.ping()),
      probe(() => this.redis.ping()),
    ]);
    return { ready: postgres === 'ok' && redis === 'ok', checks: { postgres, redis } };
  }
}

async function probe(fn: () => Promise<unknown>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([fn(), timeout]);
    return 'ok';
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}
