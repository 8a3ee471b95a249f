import type { WatchEvent } from '@graph-history/domain';
import { adapterId, type TranscriptAdapter } from './adapter';

/**
 * Where an adapter's event came from: the provider, the provider's version as its own records
 * give it (`unknown` where they give none), and the adapter (`name/version`).
 */
export const eventSource = (
  provider: string,
  adapter: Pick<TranscriptAdapter<unknown>, 'name' | 'version'>,
  providerVersion: string | undefined,
): WatchEvent['source'] => ({
  provider,
  provider_version: providerVersion ?? 'unknown',
  adapter: adapterId(adapter),
});
