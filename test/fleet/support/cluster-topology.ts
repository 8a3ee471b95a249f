import Redis from 'ioredis';

/** `CLUSTER SLOTS` as one node of the cluster sees it: which master serves which slots, and its replicas. */
interface SlotRange {
  from: number;
  to: number;
  master: number;
  replicas: number[];
}

/** Asks the node on `port` (127.0.0.1) a command; null when it does not answer. */
async function ask<T>(
  port: number,
  ...command: [string, ...(string | number)[]]
): Promise<T | null> {
  const redis = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1_000,
    commandTimeout: 1_000,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.call(...command)) as T;
  } catch {
    return null;
  } finally {
    redis.disconnect();
  }
}

/** Who serves the slot of `hashTag` (e.g. the queues' `{gh}`), as the node on `askPort` sees it. */
export async function slotOwner(
  askPort: number,
  hashTag: string,
): Promise<{ master: number; replicas: number[] } | null> {
  const slot = await ask<number>(askPort, 'CLUSTER', 'KEYSLOT', hashTag);
  const raw = await ask<[number, number, ...[string, number, string][]][]>(
    askPort,
    'CLUSTER',
    'SLOTS',
  );
  if (slot === null || !raw) return null;
  const ranges: SlotRange[] = raw.map(([from, to, ...nodes]) => ({
    from,
    to,
    master: nodes[0]![1],
    replicas: nodes.slice(1).map((r) => r[1]),
  }));
  const range = ranges.find((r) => r.from <= slot && slot <= r.to);
  return range ? { master: range.master, replicas: range.replicas } : null;
}

/** Whether the node on `port` is a master and sees the whole cluster as ok. */
export async function masterOfHealthyCluster(port: number): Promise<boolean> {
  const [role, info] = await Promise.all([
    ask<[string]>(port, 'ROLE'),
    ask<string>(port, 'CLUSTER', 'INFO'),
  ]);
  return role?.[0] === 'master' && !!info?.includes('cluster_state:ok');
}

/**
 * A BullMQ events stream on the node on `port` (it must serve its slot): the id of its newest
 * entry, and the events (`completed`, `added`…) after `sinceId` (every one when null).
 */
export async function queueEvents(
  port: number,
  stream: string,
  sinceId: string | null,
): Promise<{ newestId: string | null; events: string[] }> {
  const entries =
    (await ask<[string, string[]][]>(port, 'XRANGE', stream, sinceId ? `(${sinceId}` : '-', '+')) ??
    [];
  return {
    newestId: entries.at(-1)?.[0] ?? sinceId,
    events: entries.map(([, fields]) => fields[fields.indexOf('event') + 1]!),
  };
}
