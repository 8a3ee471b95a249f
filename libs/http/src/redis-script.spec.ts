import { createHash, randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { RedisScript } from './redis-script';

describe('RedisScript', () => {
  const redis = new Redis(process.env.REDIS_URL!);
  afterAll(() => redis.disconnect());

  it('sends the script once, where the server lacks it, then runs it by its SHA1', async () => {
    // a script no server holds yet (never SCRIPT FLUSH: the server is shared)
    const lua = `-- ${randomUUID()}\nreturn {KEYS[1], ARGV[1] + ARGV[2]}`;
    const sha = createHash('sha1').update(lua).digest('hex');
    const script = new RedisScript(lua);
    expect(await redis.script('EXISTS', sha)).toEqual([0]);
    expect(await script.run(redis, ['k'], [2, 3])).toEqual(['k', 5]);
    expect(await redis.script('EXISTS', sha)).toEqual([1]);
    expect(await script.run(redis, ['j'], [1, 1])).toEqual(['j', 2]);
  });

  it("passes the script's own errors on", async () => {
    const script = new RedisScript(`-- ${randomUUID()}\nreturn redis.call('NOSUCHCOMMAND')`);
    await expect(script.run(redis, [], [])).rejects.toThrow(
      /Unknown Redis command|unknown command/i,
    );
  });
});
