import { isConnectionError } from './connection-errors';

/** SQLSTATEs of a statement that may succeed when tried again unchanged, on a working connection. */
const RETRYABLE_SQLSTATES = new Set([
  '57P05', // idle_session_timeout
  '25006', // read_only_sql_transaction (a failover: the primary became a standby)
  '57014', // query_canceled (an operator's cancel, a statement timeout under load)
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available
]);
/** SQLSTATE classes retryable as a whole: insufficient resources (disk, memory), system errors (I/O). */
const RETRYABLE_CLASSES = new Set(['53', '58']);
/** pg's words for a read that timed out and a pool shutting down (a restart of the process, not of the data). */
const POOL_MESSAGES =
  /Query read timeout|Cannot use a pool after calling end|Client has encountered a connection error/i;

/**
 * Whether a failure of a database round trip may succeed when tried again unchanged: a lost or
 * refused connection (`isConnectionError`), a restart, a conflict with another transaction. Such a
 * failure is retried, never blamed on the data; anything else (a data error such as 22xxx or 54xxx,
 * a RangeError while encoding) fails the same way every time.
 */
export function isTransientDbError(err: unknown): boolean {
  for (let e: unknown = err, hops = 0; e !== null && e !== undefined && hops < 5; hops++) {
    if (isConnectionError(e)) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      if (RETRYABLE_SQLSTATES.has(code) || RETRYABLE_CLASSES.has(code.slice(0, 2))) return true;
    }
    if (e instanceof Error && POOL_MESSAGES.test(e.message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
