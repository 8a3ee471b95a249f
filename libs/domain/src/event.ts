import { StoredGraphCounts } from './graph-counts';

export interface EventSource {
  provider: string;
  provider_version: string;
  adapter: string;
}

export interface FieldChange {
  from: unknown;
  to: unknown;
}

export interface ChangeEntry {
  node_id: string;
  created: boolean;
  fields: Record<string, FieldChange>;
}

/** What the events table stores for one applied event. */
export interface StoredEvent {
  seq: number;
  key: string;
  type: string;
  /** Raised to the previous event's `created` when the clock went backwards. */
  created: number;
  nodeNo: number;
  source: EventSource;
  payload: Record<string, unknown>;
  changes: ChangeEntry[];
  counts: StoredGraphCounts;
}
