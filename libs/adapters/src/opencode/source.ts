import type { EmitterSource } from '../node-emitter';

export const PROVIDER = 'opencode';
export const ADAPTER_NAME = 'opencode-rows';
export const ADAPTER_VERSION = 1;

/** Who sends opencode's events; at most one `activity` per node in 15 s. */
export const OPENCODE_SOURCE: EmitterSource = {
  provider: PROVIDER,
  adapter: { name: ADAPTER_NAME, version: ADAPTER_VERSION },
  activityIntervalMs: 15_000,
};
