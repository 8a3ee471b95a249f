import { Type, type Static } from '@sinclair/typebox';
import { ATTENTION_REASONS, NODE_STATES } from '../node';
import { NOTICE_TYPES } from '../notices/notice-types';
import { closed, int, nullable, oneOf, str } from './json-schema';

/** `data` of a notice about a node: the node as the event left it, in a few facts. */
const NodeFactsSchema = closed(
  {
    kind: oneOf(['session', 'agent'] as const),
    title: nullable(
      str({
        description:
          'The session’s title, else the agent’s purpose or type (at most 300 characters).',
      }),
    ),
    state: oneOf(NODE_STATES),
    attention: nullable(
      closed({
        reason: oneOf(ATTENTION_REASONS),
        message: nullable(str({ description: 'At most 300 characters.' })),
        since: int(),
      }),
    ),
    headline: nullable(str()),
  },
  { description: 'For node.* and session.ended notices.' },
);

/** `data` of graph.quarantined. */
const QuarantineFactsSchema = closed(
  {
    event_key: nullable(str({ description: 'Idempotency key of the refused event.' })),
    reason: str({ description: 'Why it was refused (at most 500 characters).' }),
  },
  { description: 'For graph.quarantined notices.' },
);

/** A notice: what an applied event changed that a person should know (docs/api-reference.md). */
export const NoticeSchema = closed({
  id: str({ pattern: '^ntc_' }),
  object: Type.Literal('notice'),
  type: oneOf(NOTICE_TYPES),
  created: int({ description: 'The causing event’s `created`; for graph.quarantined, when.' }),
  graph_id: str(),
  node_id: nullable(str({ description: 'null for graph.quarantined.' })),
  event_id: nullable(
    str({ description: 'The event that caused it (read as_of it); null for graph.quarantined.' }),
  ),
  url: str({ description: 'The viewer at that moment (as_of the event), the node open.' }),
  data: Type.Union([NodeFactsSchema, QuarantineFactsSchema]),
});
export type PublicNotice = Static<typeof NoticeSchema>;
