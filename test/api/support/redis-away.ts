import { testQueuePrefix } from '../../support/redis-keys';
import { ApiHarness } from './api-harness';

/** The API with its Redis unreachable: its streams read Postgres every 200 ms instead. */
export const startWithRedisAway = (): Promise<ApiHarness> =>
  ApiHarness.start({
    REDIS_URL: 'redis://127.0.0.1:1',
    QUEUE_PREFIX: testQueuePrefix(),
    STREAM_POLL_MS: '200',
  });
