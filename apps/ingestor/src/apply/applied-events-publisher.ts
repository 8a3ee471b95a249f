import { Inject, Injectable } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { CONFIG, publishAppliedEvents, RedisClient } from '@graph-history/http';
import { PRODUCER_REDIS } from '../tokens';
import type { NewNotices } from './graph-applier';

/**
 * Tells the API processes (their event and notice streams) that a graph has newly applied events
 * and, when the commit wrote any, its account new notices.
 */
@Injectable()
export class AppliedEventsPublisher {
  constructor(
    @Inject(PRODUCER_REDIS) private readonly redis: RedisClient,
    @Inject(CONFIG) private readonly config: Pick<Config, 'QUEUE_PREFIX'>,
  ) {}

  publish(graphId: number, seq: number, notices: NewNotices | null = null): void {
    void publishAppliedEvents(this.redis, this.config.QUEUE_PREFIX, { graphId, seq, notices });
  }
}
