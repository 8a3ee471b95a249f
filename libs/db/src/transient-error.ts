/** SQLSTATEs that say nothing about the statement: the server went away, or asks to try again. */
const TRANSIENT_SQLSTATES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57P05', // idle_session_timeout
  '25006', // read_only_sql_transaction (a failover: the primary became a standby)
  '57014', // query_canceled (an operator's cancel, a statement timeout under load)
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available
]);
/**
 * SQLSTATE classes that are transient as a whole: connection exceptions, insufficient resources
 * (disk full, out of memory, too many connections), system errors (I/O).
 */
const TRANSIENT_CLASSES = new Set(['08', '53', '58']);
/** Node's socket errors. */
const TRANSIENT_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres and pg-pool errors that carry no code: a lost connection, a full pool, a shutdown. */
const TRANSIENT_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Cannot use a pool after calling end|Client was closed|not queryable/i;

/**
 * Whether a failure of a database round trip may succeed when tried again unchanged (a lost or
 * refused connection, a restart, a conflict with another transaction): retried, never blamed on
 * the data. Anything else (a data error such as 22xxx or 54xxx, a RangeError while encoding) fails
 * the same way every time.
 */
export function isTransientDbError(err: unknown): boolean {
  for (let e: unknown = err, hops = 0; e !== null && e !== undefined && hops < 5; hops++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_ERRNOS.has(code)) return true;
      if (/^[0-9A-Z]{5}$/.test(code) && TRANSIENT_CLASSES.has(code.slice(0, 2))) return true;
    }
    if (e instanceof Error && TRANSIENT_MESSAGES.test(e.message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
