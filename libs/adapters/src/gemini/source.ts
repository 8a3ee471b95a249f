import type { EmitterSource } from '../node-emitter';

export const PROVIDER = 'gemini-cli';
export const ADAPTER_NAME = 'gemini-chat';
export const ADAPTER_VERSION = 1;

/** Who sends Gemini CLI's events; at most one `activity` per node in 15 s of chat time. */
export const GEMINI_SOURCE: EmitterSource = {
  provider: PROVIDER,
  adapter: { name: ADAPTER_NAME, version: ADAPTER_VERSION },
  activityIntervalMs: 15_000,
};
