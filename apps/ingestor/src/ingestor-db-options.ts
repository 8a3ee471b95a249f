import { Config } from '@graph-history/config';
import { DbOptions, WRITER_SESSION_OPTIONS } from '@graph-history/db';

/** Connections the HTTP process keeps for concurrent stores, beside those of its applies. */
export const STORE_CONNECTIONS = 12;

/**
 * The Postgres pool of an ingestor process: one connection per concurrent apply run (a run keeps
 * its connection, which holds the graph's advisory lock), one each for the trim job and the
 * sweeper, and, in the process that serves HTTP, room for the stores, which must not wait behind
 * applies. Sessions plan the writers' statements generically (WRITER_SESSION_OPTIONS). The
 * connections stay open when idle: a share's next burst after a quiet spell would otherwise start on
 * new backends (connection, catalog caches, named statements prepared again), and an idle timeout
 * arms a timer at every release.
 */
export const ingestorDbOptions = (
  config: Pick<Config, 'APPLY_CONCURRENCY'>,
  servesHttp: boolean,
): DbOptions => ({
  max: config.APPLY_CONCURRENCY + 2 + (servesHttp ? STORE_CONNECTIONS : 0),
  options: WRITER_SESSION_OPTIONS,
  idleTimeoutMillis: 0,
});
