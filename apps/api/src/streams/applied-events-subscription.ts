import { randomBytes } from 'node:crypto';
import { Cluster } from 'ioredis';
import {
  AppliedEvents,
  appliedEventsChannel,
  appliedEventsShardChannels,
  createRedisClient,
  readAppliedEvents,
  RedisClient,
  RedisTarget,
} from '@graph-history/http';

export interface SubscriptionHandlers {
  message(m: AppliedEvents): void;
  /** The subscription is hearing every message (true), or may be missing some (false). */
  listening(listening: boolean): void;
  /** The first connection failed (ioredis keeps trying). */
  unreachable(err: unknown): void;
}

/**
 * This process's subscription to the ingestor's applied-events messages: SUBSCRIBE to the one
 * channel of a single Redis, or SSUBSCRIBE to every shard channel of a Redis Cluster (one
 * connection per master holding one, kept by ioredis's sharded subscribers).
 *
 * A single Redis is heard again when its connection is ready (ioredis subscribes again first).
 * A cluster's shard subscribers fail and are replaced one by one, so after any sign of trouble
 * (a node gone or failing, the cluster client closed) the subscription counts as deaf until it
 * has heard a probe it SPUBLISHed on every shard channel, tried every `probeMs`.
 */
export class AppliedEventsSubscription {
  private readonly redis: RedisClient;
  private heard = false;
  private probe: { nonce: string; missing: Set<string> } | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly target: RedisTarget,
    private readonly queuePrefix: string,
    private readonly probeMs: number,
    private readonly on: SubscriptionHandlers,
  ) {
    this.redis = createRedisClient(
      target,
      {
        lazyConnect: true,
        maxRetriesPerRequest: null,
        retryStrategy: () => 1_000,
        connectionName: 'graph-history-api-streams',
      },
      { shardedSubscribers: true },
    );
    this.redis.on('error', () => undefined);
  }

  start(): void {
    this.redis.connect().catch((err: unknown) => this.on.unreachable(err));
    // the (s)subscribe commands wait in the offline queue until the connection is ready
    if (this.redis instanceof Cluster) this.startSharded(this.redis);
    else this.startPlain();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.redis.disconnect();
  }

  private startPlain(): void {
    this.redis.on('message', (_channel: string, message: string) => this.hear(message));
    // ioredis subscribes again after each reconnection, before 'ready'
    this.redis.on('ready', () => this.on.listening(true));
    this.redis.on('close', () => this.on.listening(false));
    void this.redis.subscribe(appliedEventsChannel(this.queuePrefix)).catch(() => undefined);
  }

  private startSharded(cluster: Cluster): void {
    const channels = appliedEventsShardChannels(this.queuePrefix);
    cluster.on('smessage', (channel: string, message: string) => {
      if (message.startsWith('probe:')) this.probeHeard(channel, message);
      else this.hear(message);
    });
    for (const event of ['-node', 'nodeError', 'close', 'end'])
      cluster.on(event, () => this.deaf());
    // ioredis subscribes replaced subscribers again itself
    for (const channel of channels) void cluster.ssubscribe(channel).catch(() => undefined);
    this.timer = setInterval(() => this.sendProbe(cluster, channels), this.probeMs);
    this.timer.unref();
    this.sendProbe(cluster, channels);
  }

  private hear(message: string): void {
    const m = readAppliedEvents(message);
    if (m) this.on.message(m);
  }

  private deaf(): void {
    this.probe = null;
    if (!this.heard) return;
    this.heard = false;
    this.on.listening(false);
  }

  private sendProbe(cluster: Cluster, channels: string[]): void {
    if (this.heard || cluster.status !== 'ready') return;
    const nonce = randomBytes(8).toString('hex');
    this.probe = { nonce, missing: new Set(channels) };
    for (const channel of channels)
      void cluster.spublish(channel, `probe:${nonce}`).catch(() => undefined);
  }

  private probeHeard(channel: string, message: string): void {
    if (!this.probe || message !== `probe:${this.probe.nonce}`) return;
    this.probe.missing.delete(channel);
    if (this.probe.missing.size > 0) return;
    this.probe = null;
    this.heard = true;
    this.on.listening(true);
  }
}
