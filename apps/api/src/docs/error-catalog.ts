/**
 * Every error code the read API and the ingestor answer with; the source of the error reference
 * at /docs/errors. Keep it in step with the Errors table of docs/api-reference.md.
 */
export interface ErrorEntry {
  code: string;
  status: number;
  type: string;
  param: string;
  when: string;
  fix: string;
}

export const ERROR_CATALOG: ErrorEntry[] = [
  {
    code: 'parameter_invalid',
    status: 400,
    type: 'invalid_request_error',
    param: 'the parameter, e.g. limit',
    when: 'A parameter has a bad value: limit outside 1 to 1,000, a repeated parameter, both starting_after and ending_before, a future as_of time, descendants_max_depth without expand[]=descendants, more than 20 expand paths, an unknown expand path. On ingest: a bad event (param events[i].<field>), a body that is not JSON (param body), events missing, empty or over 1,000.',
    fix: 'Correct the parameter named in `param`; the message says what is accepted.',
  },
  {
    code: 'parameter_unknown',
    status: 400,
    type: 'invalid_request_error',
    param: 'the parameter',
    when: 'The request carries a query parameter this endpoint does not take (on ingest: a top-level body field other than events).',
    fix: 'Remove the parameter, or check its spelling.',
  },
  {
    code: 'expand_too_deep',
    status: 400,
    type: 'invalid_request_error',
    param: 'expand',
    when: 'An expand path has more than 4 levels (dotted segments; data.node.parent.parent is 4).',
    fix: 'Shorten the path and read deeper objects with another request.',
  },
  {
    code: 'expand_too_large',
    status: 400,
    type: 'invalid_request_error',
    param: 'expand',
    when: 'The expansions would put more than 10,000 expanded objects in one response.',
    fix: 'Expand fewer paths, lower limit, or page through children and descendants with the nodes list.',
  },
  {
    code: 'api_key_invalid',
    status: 401,
    type: 'authentication_error',
    param: 'null',
    when: 'No API key was sent, or the key is unknown, malformed or revoked. The message masks the key. Responses carry WWW-Authenticate: Bearer realm="graph-history".',
    fix: 'Send a valid key as `Authorization: Bearer <API_KEY>` or as the basic-auth user name with an empty password.',
  },
  {
    code: 'metrics_token_invalid',
    status: 401,
    type: 'authentication_error',
    param: 'null',
    when: "GET /metrics without `Authorization: Bearer <token>` matching the server's METRICS_TOKEN (with METRICS_TOKEN unset, /metrics answers 404).",
    fix: 'Send the METRICS_TOKEN the server was started with as a Bearer token.',
  },
  {
    code: 'api_key_restricted',
    status: 403,
    type: 'permission_error',
    param: 'null',
    when: 'A restricted key (rk_…) asked for a graph it does not list, or tried to ingest (only secret keys write).',
    fix: 'Use a secret key or a restricted key that lists the graph.',
  },
  {
    code: 'resource_missing',
    status: 404,
    type: 'invalid_request_error',
    param: 'graph_id, node_id, as_of, a cursor, or null for an unknown URL',
    when: 'The object does not exist for this key: an unknown graph (graphs of other accounts look the same), node or event, an event of another graph, a cursor not in the list, or an unknown URL.',
    fix: 'Check the id; ids come from earlier responses.',
  },
  {
    code: 'node_not_yet_created',
    status: 404,
    type: 'invalid_request_error',
    param: 'as_of',
    when: 'The node exists, but only after the as_of moment. `first_event_id` is the event that creates it.',
    fix: 'Read the node as of first_event_id or later.',
  },
  {
    code: 'method_not_allowed',
    status: 405,
    type: 'invalid_request_error',
    param: 'null',
    when: 'A method other than GET or HEAD. The API is read-only; responses carry Allow: GET, HEAD. On the ingest events path, any method but POST (Allow: POST).',
    fix: 'Use GET (POST to ingest).',
  },
  {
    code: 'request_timeout',
    status: 408,
    type: 'invalid_request_error',
    param: 'null',
    when: 'The request line and headers did not arrive within HEADERS_TIMEOUT_MS (10 s by default), or the whole request, body included, within REQUEST_TIMEOUT_MS (30 s); the connection is closed.',
    fix: 'Send the whole request promptly.',
  },
  {
    code: 'quota_exceeded',
    status: 403,
    type: 'invalid_request_error',
    param: 'graph_key (graphs quota) or events (bytes quota)',
    when: "Ingest that would take the account past a quota: a new graph beyond its graphs quota, or a batch whose events would take the bytes of the account's stored events past its bytes quota. Extra fields: quota (graphs or bytes), limit, usage, requested. Nothing of the batch is stored.",
    fix: 'Send events to an existing graph, or wait for retention to trim old events; or have the operator raise the quota with graph-history accounts set-quota (or the ACCOUNT_MAX_GRAPHS / ACCOUNT_MAX_BYTES defaults). Retrying unchanged does not help.',
  },
  {
    code: 'graph_key_taken',
    status: 409,
    type: 'invalid_request_error',
    param: 'graph_key',
    when: 'Ingest to a graph key that another account already holds.',
    fix: 'Choose another graph key.',
  },
  {
    code: 'outside_retention_window',
    status: 410,
    type: 'invalid_request_error',
    param: 'as_of, starting_after or ending_before',
    when: 'as_of or a cursor names an event that was trimmed from the retained history, or a time before the oldest retained event. `first_event_id` and `last_event_id` are the retained bounds.',
    fix: 'Fetch the graph again and continue from first_event_id.',
  },
  {
    code: 'request_too_large',
    status: 413,
    type: 'invalid_request_error',
    param: 'null',
    when: 'The ingest body is over 4 MiB (413), or the URL and headers together are over 16 KB (431).',
    fix: 'Send fewer events per batch, or a shorter URL and fewer headers.',
  },
  {
    code: 'unsupported_media_type',
    status: 415,
    type: 'invalid_request_error',
    param: 'null',
    when: 'An ingest body sent as anything but application/json (text/plain, a form, no Content-Type).',
    fix: 'Send the body as JSON with Content-Type: application/json.',
  },
  {
    code: 'rate_limit',
    status: 429,
    type: 'rate_limit_error',
    param: 'null',
    when: "Too many requests for this key's or its account's token bucket, too many expensive requests waiting for the account's concurrency slots, too many failed authentications from this address, or (behind a trusted proxy) too many requests in flight from this client address. Retry-After and the message say how long to wait.",
    fix: 'Wait Retry-After seconds; spread requests out (see the RateLimit-* headers).',
  },
  {
    code: 'api_error',
    status: 500,
    type: 'api_error',
    param: 'null',
    when: 'Something failed on our side (503 while the database is unreachable). The message quotes the request id.',
    fix: 'Retry with backoff; if it persists, report the Request-Id.',
  },
];
