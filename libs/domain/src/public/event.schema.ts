import { Type, type Static } from '@sinclair/typebox';
import { closed, ref, str, int } from './json-schema';

const ChangeSchema = Type.Object({
  node_id: str(),
  created: Type.Boolean(),
  fields: Type.Unsafe<Record<string, { from: unknown; to: unknown }>>({
    type: 'object',
    additionalProperties: closed({ from: Type.Unknown(), to: Type.Unknown() }),
  }),
});

/** The read API's Event; `data` only with expand[]=data.node. */
export const EventSchema = closed({
  id: str({ pattern: '^evt_' }),
  object: Type.Literal('event'),
  type: str(),
  created: int(),
  graph_id: str(),
  node_id: str(),
  source: closed({ provider: str(), provider_version: str(), adapter: str() }),
  payload: Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true }),
  changes: Type.Array(ChangeSchema),
  data: Type.Optional(
    closed(
      // null first: the serializer tries the branches in order
      { node: Type.Union([Type.Null(), ref<Record<string, unknown>>('Node')]) },
      { description: 'Present only with expand[]=data.node.' },
    ),
  ),
});
export type PublicEvent = Static<typeof EventSchema>;
