/** The ingest endpoint's answer to a stored batch (ingest.md). */
export interface IngestResult {
  accepted: number;
  duplicates: number;
  last_key: string;
}

/** The error envelope's `error` object, as the server sent it. */
export interface IngestErrorBody {
  type: string;
  code: string;
  message: string;
  param: string | null;
  [extra: string]: unknown;
}

export interface RetryNotice {
  attempt: number;
  /** Attempts left after this one. */
  attemptsLeft: number;
  delayMs: number;
  reason: string;
  /** The ingest endpoint did not answer at all (nothing listens there, a timeout). */
  unreachable: boolean;
}

export interface IngestClientOptions {
  /** Ingest base URL, e.g. http://127.0.0.1:3001. */
  url: string;
  /** A secret key (`sk_…`). */
  key: string;
  /** Attempts per batch before giving up on network errors, 5xx and 429. Default 8. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs?: number;
  onRetry?: (notice: RetryNotice) => void;
}

/** The server refused the batch (a 4xx other than 429), or retries ran out. */
export class IngestRequestError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly body: IngestErrorBody | null,
  ) {
    super(message);
    this.name = 'IngestRequestError';
  }
}

class Retryable extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
    readonly unreachable = false,
  ) {
    super(message);
  }
}

/**
 * POSTs WatchEvent batches to `{url}/ingest/v1/graphs/{graph_key}/events`. Network errors, 5xx and
 * 429 are retried with exponential backoff (honouring Retry-After): safe, because event keys make a
 * re-sent batch a no-op counted in `duplicates`. Callers send a graph's next batch only after the
 * previous one was answered.
 */
export class IngestClient {
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: IngestClientOptions) {
    this.maxAttempts = options.maxAttempts ?? 8;
    this.baseDelayMs = options.baseDelayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 15_000;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  eventsUrl(graphKey: string): string {
    return `${this.options.url.replace(/\/+$/, '')}/ingest/v1/graphs/${encodeURIComponent(graphKey)}/events`;
  }

  async send(graphKey: string, events: readonly unknown[]): Promise<IngestResult> {
    const body = JSON.stringify({ events });
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.post(graphKey, body);
      } catch (err) {
        if (!(err instanceof Retryable)) throw err;
        if (attempt >= this.maxAttempts) {
          throw new IngestRequestError(
            `Gave up after ${attempt} attempts: ${err.message}`,
            null,
            null,
          );
        }
        const backoff = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1));
        const delayMs = Math.max(
          err.retryAfterMs ?? 0,
          backoff / 2 + (Math.random() * backoff) / 2,
        );
        this.options.onRetry?.({
          attempt,
          attemptsLeft: this.maxAttempts - attempt,
          delayMs,
          reason: err.message,
          unreachable: err.unreachable,
        });
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  }

  private async post(graphKey: string, body: string): Promise<IngestResult> {
    let res: Response;
    try {
      res = await fetch(this.eventsUrl(graphKey), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.options.key}`,
          'content-type': 'application/json',
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new Retryable(
        `cannot reach ${this.options.url} (${cause?.code ?? cause?.message ?? (err as Error).message})`,
        null,
        true,
      );
    }
    const text = await res.text().catch(() => '');
    if (res.status === 202 || res.status === 200) return JSON.parse(text) as IngestResult;
    const envelope = parseEnvelope(text);
    const what = `${res.status}${envelope ? ` ${envelope.code}: ${envelope.message}` : ''}`;
    if (res.status === 429 || res.status >= 500) {
      throw new Retryable(what, retryAfterMs(res.headers.get('retry-after')));
    }
    throw new IngestRequestError(
      envelope?.message ?? `The ingest endpoint answered ${res.status}.`,
      res.status,
      envelope,
    );
  }
}

function parseEnvelope(text: string): IngestErrorBody | null {
  try {
    const parsed = JSON.parse(text) as { error?: IngestErrorBody };
    return parsed.error && typeof parsed.error.message === 'string' ? parsed.error : null;
  } catch {
    return null;
  }
}

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
