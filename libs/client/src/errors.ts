import type { ErrorBody, ErrorType } from './types/resources.js';

/** What every error of the client carries besides its message. */
export interface ErrorDetails {
  type: ErrorType | 'connection_error';
  code: string;
  param: string | null;
  doc_url: string | null;
  /** HTTP status; 0 when no answer came back. */
  status: number;
  /** The `Request-Id` of the answer (`req_…`); null when no answer came back. */
  requestId: string | null;
  /** `node_not_yet_created`: the creating event; `outside_retention_window`: the oldest retained event. */
  first_event_id?: string | null;
  /** `outside_retention_window`: the newest retained event. */
  last_event_id?: string | null;
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  retryAfter?: number | null;
}

/** Base class of every error the client throws; `instanceof GraphHistoryError` catches them all. */
export class GraphHistoryError extends Error implements ErrorDetails {
  readonly type: ErrorDetails['type'];
  readonly code: string;
  readonly param: string | null;
  readonly doc_url: string | null;
  readonly status: number;
  readonly requestId: string | null;
  readonly first_event_id?: string | null;
  readonly last_event_id?: string | null;
  readonly retryAfter?: number | null;

  constructor(message: string, details: ErrorDetails) {
    super(message);
    this.name = new.target.name;
    this.type = details.type;
    this.code = details.code;
    this.param = details.param;
    this.doc_url = details.doc_url;
    this.status = details.status;
    this.requestId = details.requestId;
    if (details.first_event_id !== undefined) this.first_event_id = details.first_event_id;
    if (details.last_event_id !== undefined) this.last_event_id = details.last_event_id;
    if (details.retryAfter !== undefined) this.retryAfter = details.retryAfter;
  }
}

/** 401 `authentication_error`: the key is missing, unknown, malformed or revoked. */
export class AuthenticationError extends GraphHistoryError {}

/** 403 `permission_error`: a restricted key that does not list the graph. */
export class PermissionError extends GraphHistoryError {}

/**
 * 400/404/405/410 `invalid_request_error`: a bad parameter, an id that names nothing, or a
 * moment outside retention (`code` says which; 410 carries `first_event_id`/`last_event_id`).
 */
export class InvalidRequestError extends GraphHistoryError {}

/** 429 `rate_limit_error`, after the client's retries ran out; `retryAfter` is in seconds. */
export class RateLimitError extends GraphHistoryError {}

/** 5xx `api_error`, after the client's retries ran out. Quote `requestId` when reporting it. */
export class ApiError extends GraphHistoryError {}

/** No answer: the network failed or the request timed out, after the client's retries ran out. */
export class ConnectionError extends GraphHistoryError {}

/** Failures worth trying again later: no answer, 5xx, 429 (after the client's own retries gave up). */
export const isTransient = (err: unknown): boolean =>
  err instanceof ConnectionError || err instanceof ApiError || err instanceof RateLimitError;

const CLASS_BY_TYPE: Record<ErrorType, typeof GraphHistoryError> = {
  authentication_error: AuthenticationError,
  permission_error: PermissionError,
  invalid_request_error: InvalidRequestError,
  rate_limit_error: RateLimitError,
  api_error: ApiError,
};

export interface AnswerMeta {
  status: number;
  requestId: string | null;
  retryAfter: number | null;
}

/** The typed error for an error answer: its envelope when it has one, else one made from its status. */
export function errorFromAnswer(body: unknown, meta: AnswerMeta): GraphHistoryError {
  const envelope = (body as { error?: Partial<ErrorBody> } | null)?.error;
  const type = knownType(envelope?.type) ?? typeOfStatus(meta.status);
  const details: ErrorDetails = {
    type,
    code: envelope?.code ?? (type === 'api_error' ? 'api_error' : `http_${meta.status}`),
    param: envelope?.param ?? null,
    doc_url: envelope?.doc_url ?? null,
    status: meta.status,
    requestId: meta.requestId,
  };
  if (envelope && 'first_event_id' in envelope) details.first_event_id = envelope.first_event_id;
  if (envelope && 'last_event_id' in envelope) details.last_event_id = envelope.last_event_id;
  if (meta.retryAfter !== null) details.retryAfter = meta.retryAfter;
  const message = envelope?.message ?? `The API answered HTTP ${meta.status}.`;
  return new CLASS_BY_TYPE[type](message, details);
}

function knownType(type: unknown): ErrorType | null {
  return typeof type === 'string' && type in CLASS_BY_TYPE ? (type as ErrorType) : null;
}

function typeOfStatus(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

export function connectionError(cause: unknown): ConnectionError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const error = new ConnectionError(`Could not reach the API: ${reason}`, {
    type: 'connection_error',
    code: 'connection_error',
    param: null,
    doc_url: null,
    status: 0,
    requestId: null,
  });
  (error as { cause?: unknown }).cause = cause;
  return error;
}
