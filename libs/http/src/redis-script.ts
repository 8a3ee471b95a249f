import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-client';

/**
 * A Lua script run by its SHA1 (EVALSHA), sent whole (EVAL) only when the server does not hold
 * it yet (NOSCRIPT: a fresh or restarted Redis, a cluster node first asked): the scripts of the
 * rate limiters are a kilobyte or two, run once or more per request or batch.
 */
export class RedisScript {
  private readonly sha: string;

  constructor(private readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(redis: RedisClient, keys: readonly string[], args: readonly (string | number)[]) {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return redis.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}
