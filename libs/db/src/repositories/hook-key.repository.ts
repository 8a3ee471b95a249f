import { sql } from 'kysely';
import { Repository } from './repository';

/** Which stored idempotency keys count as a session's transcript (see the adapters' hook events). */
export interface TranscriptKeyRule {
  prefix: string;
  exceptPrefixes: string[];
  exceptKeys: string[];
}

/** What a graph's stored keys say about one Claude Code hook's session and node. */
export interface HookKeyFacts {
  transcriptFeeds: boolean;
  /** The greatest key starting with each asked prefix, if any. */
  newestAsk: string | null;
  newestAnswered: string | null;
}

/**
 * Reads the keys of a graph that the ingestor's Claude Code hook endpoint decides by (event_keys
 * outlive retention, so the answer does not change when events are trimmed). The graph is found
 * by key within the account; a graph that does not exist yet has no keys. Prefixes are compared
 * byte-wise (`starts_with`, `collate "C"`), whatever the database's collation; the scan is over
 * the graph's keys (one hook at a time per session, a few per second at most).
 */
export class HookKeyRepository extends Repository {
  async facts(
    accountId: number,
    graphKey: string,
    transcript: TranscriptKeyRule,
    askPrefix: string,
    answeredPrefix: string,
  ): Promise<HookKeyFacts> {
    const newest = (prefix: string) =>
      sql<string | null>`(select max(k.key collate "C") from event_keys k
        where k.graph_id = d.graph_id and starts_with(k.key, ${prefix}))`;
    const { rows } = await sql<{
      transcript_feeds: boolean;
      ask: string | null;
      answered: string | null;
    }>`select
        exists (select 1 from event_keys k
          where k.graph_id = d.graph_id and starts_with(k.key, ${transcript.prefix})
            and not exists (select 1 from unnest(${transcript.exceptPrefixes}::text[]) p
              where starts_with(k.key, p))
            and k.key <> all(${transcript.exceptKeys}::text[])) as transcript_feeds,
        ${newest(askPrefix)} as ask,
        ${newest(answeredPrefix)} as answered
      from graph_directory d
      where d.graph_key = ${graphKey} and d.account_id = ${accountId}`.execute(this.db);
    const row = rows[0];
    return {
      transcriptFeeds: row?.transcript_feeds ?? false,
      newestAsk: row?.ask ?? null,
      newestAnswered: row?.answered ?? null,
    };
  }
}
