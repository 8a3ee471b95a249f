/**
 * Errors that say the database connection, not the statement, failed: Postgres was unreachable,
 * restarting or shutting down, or the connection broke. They pass: a retry on a new connection can
 * succeed, so such a failure must never be held against the data (a graph's apply is retried, not
 * quarantined) and a request gets 503, not 500.
 */
const SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
]);

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** What pg says when a connection breaks or cannot be had (it sets no code on these). */
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|connect ECONNREFUSED/i;

export function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (code.startsWith('08') || SQLSTATES.has(code) || SOCKET_CODES.has(code)) return true;
  }
  return err instanceof Error && MESSAGES.test(err.message);
}
