import { Inject, Injectable } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { CONFIG, publishAppliedEvents, RedisClient } from '@graph-history/http';
import { PRODUCER_REDIS } from '../tokens';

/** Tells the API processes (their event streams) that a graph has newly applied events. */
@Injectable()
export class AppliedEventsPublisher {
  constructor(
    @Inject(PRODUCER_REDIS) private readonly redis: RedisClient,
    @Inject(CONFIG) private readonly config: Pick<Config, 'QUEUE_PREFIX'>,
  ) {}

  publish(graphId: number, seq: number): void {
    void publishAppliedEvents(this.redis, this.config.QUEUE_PREFIX, { graphId, seq });
  }
}
