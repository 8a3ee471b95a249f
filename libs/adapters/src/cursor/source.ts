import type { EmitterSource } from '../node-emitter';

export const PROVIDER = 'cursor';
export const ADAPTER_NAME = 'cursor-transcript';
export const ADAPTER_VERSION = 1;

/** Who sends Cursor's events; at most one `activity` per node in 15 s. */
export const CURSOR_SOURCE: EmitterSource = {
  provider: PROVIDER,
  adapter: { name: ADAPTER_NAME, version: ADAPTER_VERSION },
  activityIntervalMs: 15_000,
};
