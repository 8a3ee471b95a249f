import { connectionError } from '../errors.js';
import type { OpenStream } from '../http/transport.js';
import { type SseMessage, SseParser } from './sse-parser.js';

/**
 * The messages of an open event stream until the server ends it. Nothing received for
 * `idleTimeoutMs` (not even a heartbeat) counts as a lost connection: like a network failure, it
 * throws a ConnectionError. The stream is closed when the iteration ends, however it ends.
 */
export async function* readSse(
  stream: OpenStream,
  parser: SseParser,
  idleTimeoutMs: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<SseMessage, void, undefined> {
  const reader = stream.body.getReader();
  const decoder = new TextDecoder();
  let idle = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    for (;;) {
      // only while waiting for the server: a consumer may take its time between messages
      timer = setTimeout(() => {
        idle = true;
        stream.close();
      }, idleTimeoutMs);
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        throw connectionError(idle ? new Error(`nothing received for ${idleTimeoutMs} ms`) : err);
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) return;
      yield* parser.push(decoder.decode(chunk.value, { stream: true }));
    }
  } finally {
    stream.close();
    reader.cancel().catch(() => undefined);
  }
}
