import { connectionError, errorFromAnswer, GraphHistoryError } from '../errors.js';
import type { FetchLike, FetchResponse } from './fetch-like.js';

type RawAnswer = Pick<FetchResponse, 'status' | 'headers'> & { text: string };
import { parseRetryAfter, RetryPolicy } from './retry-policy.js';
import { sleep } from './sleep.js';

/** Options of one call. */
export interface RequestOptions {
  /** Stops the call (and its retries); the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface GetOptions extends RequestOptions {
  /** Sent as `If-None-Match`; a match answers 304 (see `Answer.status`). */
  ifNoneMatch?: string;
}

/** A successful answer: 200 with its body, or 304 without one. */
export interface Answer<T> {
  status: 200 | 304;
  body: T | undefined;
  etag: string | null;
  requestId: string | null;
}

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  retry: RetryPolicy;
  fetch: FetchLike;
}

/** An open `text/event-stream` answer; `close()` ends the request. */
export interface OpenStream {
  body: ReadableStream<Uint8Array>;
  close(): void;
}

/** The fetch gives no readable body (an environment without streaming). */
export class StreamingUnsupportedError extends TypeError {}

/** GETs read API paths with the key, a timeout per attempt, retries, and typed errors. */
export class Transport {
  private readonly baseUrl: string;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** GET `path` (absolute, e.g. `/api/v1/graphs?limit=10`, as list `url`s are). */
  async get<T>(path: string, options: GetOptions = {}): Promise<Answer<T>> {
    const url = `${this.baseUrl}${path}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      accept: 'application/json',
    };
    if (options.ifNoneMatch !== undefined) headers['if-none-match'] = options.ifNoneMatch;
    for (let retry = 1; ; retry++) {
      const raw = await this.attempt(url, headers, options.signal).catch((err: unknown) => {
        if (options.signal?.aborted) throw options.signal.reason;
        return connectionError(err);
      });
      let failure: GraphHistoryError;
      if (raw instanceof GraphHistoryError) failure = raw;
      else {
        const requestId = raw.headers.get('request-id');
        const etag = raw.headers.get('etag');
        if (raw.status === 304) return { status: 304, body: undefined, etag, requestId };
        const body = parseJson(raw.text);
        if (raw.status >= 200 && raw.status < 300)
          return { status: 200, body: body as T, etag, requestId };
        const retryAfter = parseRetryAfter(raw.headers.get('retry-after'));
        failure = errorFromAnswer(body, { status: raw.status, requestId, retryAfter });
        if (!RetryPolicy.retriesStatus(raw.status)) throw failure;
      }
      const delay = this.options.retry.delayMs(retry, failure.retryAfter ?? null);
      if (delay === null) throw failure;
      await sleep(delay, options.signal);
    }
  }

  /**
   * GET `path` as an event stream (one attempt, no retries: the caller reconnects), sending
   * `Last-Event-ID` when given. `timeoutMs` bounds the wait for the answer's head only. Throws the
   * typed error of an error answer, or StreamingUnsupportedError.
   */
  async openStream(
    path: string,
    options: RequestOptions & { lastEventId?: string },
  ): Promise<OpenStream> {
    const { signal } = options;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      accept: 'text/event-stream',
      'cache-control': 'no-cache',
    };
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const controller = new AbortController();
    const close = () => {
      signal?.removeEventListener('abort', forward);
      controller.abort(signal?.reason ?? new Error('stream closed'));
    };
    const forward = () => controller.abort(signal!.reason);
    if (signal?.aborted) forward();
    signal?.addEventListener('abort', forward, { once: true });
    const timer = setTimeout(
      () => controller.abort(new Error(`timed out after ${this.options.timeoutMs} ms`)),
      this.options.timeoutMs,
    );
    try {
      const res = await this.options.fetch(`${this.baseUrl}${path}`, {
        method: 'GET',
        headers,
        signal: controller.signal,
      });
      if (res.status < 200 || res.status >= 300) {
        const body = parseJson(await res.text());
        throw errorFromAnswer(body, {
          status: res.status,
          requestId: res.headers.get('request-id'),
          retryAfter: parseRetryAfter(res.headers.get('retry-after')),
        });
      }
      if (!/^text\/event-stream\b/.test(res.headers.get('content-type') ?? ''))
        throw new StreamingUnsupportedError('The answer is not an event stream.');
      if (typeof res.body?.getReader !== 'function')
        throw new StreamingUnsupportedError(
          'This fetch gives no readable response body, so event streams cannot be read.',
        );
      return { body: res.body, close };
    } catch (err) {
      const timeout: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
      close();
      if (err instanceof GraphHistoryError || err instanceof StreamingUnsupportedError) throw err;
      if (signal?.aborted) throw signal.reason;
      throw connectionError(timeout ?? err);
    } finally {
      clearTimeout(timer);
    }
  }

  /** One fetch and its body, aborted by the caller's signal or after `timeoutMs`. */
  private async attempt(
    url: string,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<RawAnswer> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error(`timed out after ${this.options.timeoutMs} ms`)),
      this.options.timeoutMs,
    );
    const forward = () => controller.abort(signal!.reason);
    if (signal?.aborted) forward();
    signal?.addEventListener('abort', forward, { once: true });
    try {
      const res = await this.options.fetch(url, {
        method: 'GET',
        headers,
        signal: controller.signal,
      });
      return { status: res.status, headers: res.headers, text: await res.text() };
    } catch (err) {
      throw controller.signal.aborted && !signal?.aborted ? controller.signal.reason : err;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
