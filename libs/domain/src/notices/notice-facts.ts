import { NodeRecord } from '../node';

/** The small facts a notice about a node carries (`data`): enough to say what happened. */
export interface NodeNoticeFacts {
  kind: NodeRecord['kind'];
  /** The session's title, else an agent's purpose, else its agent type. */
  title: string | null;
  state: NodeRecord['state'];
  attention: NodeRecord['attention'];
  headline: string | null;
}

export const nodeNoticeFacts = (rec: NodeRecord): NodeNoticeFacts => ({
  kind: rec.kind,
  title: rec.title ?? rec.purpose ?? rec.agentType,
  state: rec.state,
  attention: rec.attention,
  headline: rec.headline,
});

/** What a graph.quarantined notice carries: why the graph stopped applying. */
export interface QuarantineNoticeFacts {
  /** The refused event's idempotency key, when known. */
  event_key: string | null;
  reason: string;
}

/** At most this much of a refusal's text goes into a notice. */
export const QUARANTINE_REASON_MAX = 500;
