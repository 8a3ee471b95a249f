import { type WatchEvent } from '@graph-history/domain';
import { type EmitterSource, NodeEmitter } from '../node-emitter';
import type { RolloutLine } from './rollout-line';

export const PROVIDER = 'codex';
export const ADAPTER_NAME = 'codex-rollout';
export const ADAPTER_VERSION = 1;

/** At most one `activity` per node in this much rollout time; other events are never held back. */
export const CODEX_ACTIVITY_INTERVAL_MS = 15_000;

const ADAPTER = { name: ADAPTER_NAME, version: ADAPTER_VERSION };

export const CODEX_SOURCE: EmitterSource = {
  provider: PROVIDER,
  adapter: ADAPTER,
  activityIntervalMs: CODEX_ACTIVITY_INTERVAL_MS,
};

/**
 * Emits the events of one rollout line on created, live nodes only. Keys are
 * `<thread id>:L<line number>:<n>`; creations use `<ref>:started` / `<ref>:spawned`.
 */
export type Emitter = NodeEmitter;

export const emitterOfLine = (line: RolloutLine, ts: number, out: WatchEvent[]): Emitter =>
  NodeEmitter.ofLine(CODEX_SOURCE, line.fileId, line.lineNo, ts, out);
