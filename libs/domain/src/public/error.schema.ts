import { Type, type Static } from '@sinclair/typebox';
import { nullable, oneOf, str } from './json-schema';

export const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'rate_limit_error',
  'api_error',
] as const;

/** The error envelope every failed request answers with. */
export const ErrorSchema = Type.Object({
  error: Type.Object({
    type: oneOf(ERROR_TYPES),
    code: str(),
    message: str(),
    param: nullable(str()),
    doc_url: str(),
    first_event_id: Type.Optional(
      nullable(
        str({
          description:
            'node_not_yet_created: the creating event; outside_retention_window: the oldest retained event.',
        }),
      ),
    ),
    last_event_id: Type.Optional(
      nullable(str({ description: 'outside_retention_window: the newest retained event.' })),
    ),
  }),
});
export type ErrorEnvelope = Static<typeof ErrorSchema>;
