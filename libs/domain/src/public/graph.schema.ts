import { Type, type Static } from '@sinclair/typebox';
import { NODE_STATES } from '../node';
import { closed, int, nullable, oneOf, ref, str } from './json-schema';
import type { PricedCounts } from '../usage/usage';

export const RetentionSchema = closed({
  event_count: int(),
  first_event_id: nullable(str()),
  first_event_created: nullable(int()),
  last_event_id: nullable(str()),
  last_event_created: nullable(int()),
});

const byState = Object.fromEntries(NODE_STATES.map((s) => [s, int()])) as Record<
  (typeof NODE_STATES)[number],
  ReturnType<typeof int>
>;

export const GraphCountsSchema = closed({
  nodes: int(),
  sessions: int(),
  agents: int(),
  stale: int(),
  blocked: int(),
  by_state: closed(byState),
});

/** The read API's Graph. */
export const GraphSchema = closed({
  id: str({ pattern: '^gph_[A-Za-z0-9_-]{1,64}$' }),
  object: Type.Literal('graph'),
  as_of_event_id: nullable(
    str({
      description: 'Event the counts are as of; null only before the first event is applied.',
    }),
  ),
  source: oneOf(['watch', 'paste', 'upload'] as const),
  url: str({ description: 'Viewer address; opens only for the owning account.' }),
  created: int(),
  last_event: nullable(
    int({ description: 'Time of the event the graph is as of; null only before the first event.' }),
  ),
  retention: ref<Static<typeof RetentionSchema>>('Retention'),
  counts: ref<Static<typeof GraphCountsSchema>>('GraphCounts'),
  usage: ref<PricedCounts>('UsageTotals', {
    description:
      'Tokens of every node, with their estimated cost, as of as_of_event_id (per model: each session’s descendant_usage).',
  }),
  apply_error: Type.Optional(
    closed(
      {
        code: Type.Literal('event_rejected'),
        message: str(),
        since: int(),
      },
      {
        description:
          'Present only while the graph stopped applying at a stored event that cannot be applied: newer events are stored, not shown.',
      },
    ),
  ),
});
export type PublicGraph = Static<typeof GraphSchema>;
