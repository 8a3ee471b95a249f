/** When and how long to wait before trying a request again. */
export interface RetryOptions {
  /** Retries after the first attempt (network errors, timeouts, 5xx, 429). Default 2; 0 turns retrying off. */
  maxRetries?: number;
  /** Wait before the first retry; doubles on each retry. Default 500 ms. */
  initialDelayMs?: number;
  /** Longest computed wait. Default 8,000 ms. A longer `Retry-After` is honoured up to `maxRetryAfterMs`. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown. Default 60,000 ms. */
  maxRetryAfterMs?: number;
}

export class RetryPolicy {
  readonly maxRetries: number;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxRetryAfterMs: number;

  constructor(options: RetryOptions = {}, random: () => number = Math.random) {
    this.maxRetries = options.maxRetries ?? 2;
    this.initialDelayMs = options.initialDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 8_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.random = random;
  }

  private readonly random: () => number;

  /** Whether an answer with this status may be retried: 5xx and 429, never another 4xx. */
  static retriesStatus(status: number): boolean {
    return status === 429 || status >= 500;
  }

  /**
   * Milliseconds to wait before retry number `retry` (1-based): exponential backoff with jitter
   * (between half and all of the step), and at least `Retry-After`. Null when no retry is left or
   * the server asks for a longer wait than `maxRetryAfterMs`.
   */
  delayMs(retry: number, retryAfterSeconds: number | null): number | null {
    if (retry > this.maxRetries) return null;
    const step = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** (retry - 1));
    const backoff = step / 2 + (this.random() * step) / 2;
    if (retryAfterSeconds === null) return Math.round(backoff);
    const asked = retryAfterSeconds * 1000;
    if (asked > this.maxRetryAfterMs) return null;
    return Math.round(Math.max(asked, backoff));
  }
}

/** `Retry-After` in seconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - now) / 1000);
}
