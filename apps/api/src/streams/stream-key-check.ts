import { Injectable } from '@nestjs/common';
import { ApiKeyRepository } from '@graph-history/db';
import { apiKeyInvalid, Principal } from '@graph-history/http';

/** An open stream (of events or notices), as far as key checks go. */
export interface KeyedStream {
  principal: Principal;
  fail(err: unknown): void;
}

/**
 * Ends the streams whose key was revoked: one look-up of the distinct keys of all open streams
 * (on the primary, past the 5 s key cache), every STREAM_KEY_CHECK_MS.
 */
@Injectable()
export class StreamKeyCheck {
  private checking = false;

  constructor(private readonly keys: ApiKeyRepository) {}

  async endRevoked(streams: KeyedStream[]): Promise<void> {
    if (this.checking || streams.length === 0) return;
    this.checking = true;
    try {
      const ids = [...new Set(streams.map((s) => s.principal.keyId))];
      const active = await this.keys.activeIds(ids);
      for (const s of streams) {
        if (!active.has(s.principal.keyId))
          s.fail(apiKeyInvalid('The API key of this stream was revoked.'));
      }
    } catch {
      // the database is away: streams stay open, and the next check tries again
    } finally {
      this.checking = false;
    }
  }
}
