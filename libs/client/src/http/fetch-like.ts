/**
 * The part of the platform's `fetch` the client uses, so that any conforming implementation
 * (Node's, a browser's, undici's, a test double) can be passed in.
 */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; signal: AbortSignal },
) => Promise<FetchResponse>;

export interface FetchResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  /** The body as it arrives; event streams need it (without it, `events.follow` polls). */
  body?: ReadableStream<Uint8Array> | null;
}
