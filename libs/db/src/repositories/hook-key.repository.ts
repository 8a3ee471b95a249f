import { sql } from 'kysely';
import { Repository } from './repository';
import { GenerateSql } from '../sql-text/generate-sql';

/** Which stored idempotency keys count as a session's transcript (see the adapters' hook events). */
export interface TranscriptKeyRule {
  prefix: string;
  exceptPrefixes: string[];
  exceptKeys: string[];
}

/** Above every character: `[prefix, prefix + TOP)` holds the keys that start with `prefix`. */
const TOP = '\u{10FFFF}';

/**
 * Reads the keys of a graph that the ingestor's Claude Code hook endpoint decides by (event_keys
 * outlive retention, so the answer does not change when events are trimmed). The graph is found
 * by key within the account; a graph that does not exist yet has no keys. Prefixes are compared
 * byte-wise (`starts_with`), whatever the database's collation. When the database sorts text in
 * byte order (collation C, POSIX or C.UTF-8) the key's range is given too, so the primary key's
 * index reads only the keys under the prefix; otherwise every key of the graph is scanned.
 */
export class HookKeyRepository extends Repository {
  private byteOrder: Promise<boolean> | undefined;

  /** Whether the graph holds a key of `rule` (a transcript's line of the session). */
  @GenerateSql({
    params: [1, 'g1', { prefix: 't:', exceptPrefixes: ['t:x'], exceptKeys: ['t:y'] }],
  })
  async transcriptFeeds(
    accountId: number,
    graphKey: string,
    rule: TranscriptKeyRule,
  ): Promise<boolean> {
    const range = await this.range(rule.prefix);
    const { rows } = await sql<{ feeds: boolean }>`select exists (
        select 1 from graph_directory d join event_keys k on k.graph_id = d.graph_id
        where d.graph_key = ${graphKey} and d.account_id = ${accountId} and ${range}
          and starts_with(k.key, ${rule.prefix})
          and not exists (select 1 from unnest(${rule.exceptPrefixes}::text[]) p
            where starts_with(k.key, p))
          and k.key <> all(${rule.exceptKeys}::text[])) as feeds`.execute(this.db);
    return rows[0]?.feeds ?? false;
  }

  /** The greatest key (byte order) starting with each of the two prefixes, if any. */
  @GenerateSql({ params: [1, 'g1', ['a:', 'b:']] })
  async newestOf(
    accountId: number,
    graphKey: string,
    prefixes: [string, string],
  ): Promise<[string | null, string | null]> {
    const newest = async (prefix: string) =>
      sql<string | null>`(select max(k.key collate "C") from event_keys k
        where k.graph_id = d.graph_id and ${await this.range(prefix)}
          and starts_with(k.key, ${prefix}))`;
    const { rows } = await sql<{ a: string | null; b: string | null }>`select
        ${await newest(prefixes[0])} as a, ${await newest(prefixes[1])} as b
      from graph_directory d
      where d.graph_key = ${graphKey} and d.account_id = ${accountId}`.execute(this.db);
    return [rows[0]?.a ?? null, rows[0]?.b ?? null];
  }

  /** `k.key` within the prefix's range when text sorts in byte order here, else `true`. */
  private async range(prefix: string) {
    return (await this.sortsInByteOrder())
      ? sql`k.key >= ${prefix} and k.key < ${prefix + TOP}`
      : sql`true`;
  }

  private sortsInByteOrder(): Promise<boolean> {
    return (this.byteOrder ??= sql<{ bytes: boolean }>`select
        (datcollate in ('C', 'POSIX') or lower(datcollate) in ('c.utf-8', 'c.utf8')) as bytes
      from pg_database where datname = current_database()`
      .execute(this.db)
      .then((r) => r.rows[0]?.bytes ?? false)
      .catch((err: unknown) => {
        this.byteOrder = undefined; // asked again next time
        throw err;
      }));
  }
}
