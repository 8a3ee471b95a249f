import { NodeRecord } from '../node';

/**
 * The small facts a notice about a node carries (`data`): enough to say what happened, each text
 * short, so that a notice stays around a kilobyte and a page of 1,000 around a megabyte.
 */
export interface NodeNoticeFacts {
  kind: NodeRecord['kind'];
  /** The session's title, else an agent's purpose, else its agent type. */
  title: string | null;
  state: NodeRecord['state'];
  attention: NodeRecord['attention'];
  headline: string | null;
}

/** At most this much of a node's title and of its attention's message goes into a notice. */
export const NOTICE_TEXT_MAX = 300;

/** `text` cut to NOTICE_TEXT_MAX characters (the last one `…` when cut). */
const short = (text: string | null): string | null =>
  text === null || text.length <= NOTICE_TEXT_MAX ? text : `${text.slice(0, NOTICE_TEXT_MAX - 1)}…`;

export const nodeNoticeFacts = (rec: NodeRecord): NodeNoticeFacts => ({
  kind: rec.kind,
  title: short(rec.title ?? rec.purpose ?? rec.agentType),
  state: rec.state,
  attention: rec.attention && { ...rec.attention, message: short(rec.attention.message) },
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
