import type { Config } from '@graph-history/config';
import type { SseStream } from './sse-stream';
import type { KeyedStream, StreamKeyCheck } from './stream-key-check';

export type StreamTimerSettings = Pick<
  Config,
  'STREAM_HEARTBEAT_MS' | 'STREAM_POLL_MS' | 'STREAM_KEY_CHECK_MS'
>;

/**
 * Starts the periodic work of a fan-out's open streams: `poll` every STREAM_POLL_MS, heartbeats
 * on streams idle for half of STREAM_HEARTBEAT_MS, the revoked-key check every
 * STREAM_KEY_CHECK_MS. Returns what stops them.
 */
export function startStreamTimers(
  config: StreamTimerSettings,
  keys: StreamKeyCheck,
  streams: () => Iterable<SseStream & KeyedStream>,
  poll: () => void,
): () => void {
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, fn: () => void) => {
    const t = setInterval(fn, ms);
    t.unref();
    timers.push(t);
  };
  every(config.STREAM_POLL_MS, poll);
  const heartbeat = config.STREAM_HEARTBEAT_MS;
  every(Math.ceil(heartbeat / 2), () => {
    const now = Date.now();
    for (const s of streams()) s.heartbeat(now, Math.floor(heartbeat / 2));
  });
  every(config.STREAM_KEY_CHECK_MS, () => void keys.endRevoked([...streams()]));
  return () => {
    for (const t of timers) clearInterval(t);
  };
}
