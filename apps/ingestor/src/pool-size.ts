import { Config } from '@graph-history/config';

/** Connections the HTTP process keeps for concurrent stores, beside those of its applies. */
const STORE_CONNECTIONS = 12;

/**
 * Postgres connections of an ingestor process: one per concurrent apply run (a run keeps its
 * connection, which holds the graph's advisory lock), one each for the trim job and the sweeper,
 * and, in the process that serves HTTP, room for the stores, which must not wait behind applies.
 */
export const ingestorPoolSize = (
  config: Pick<Config, 'APPLY_CONCURRENCY'>,
  servesHttp: boolean,
): number => config.APPLY_CONCURRENCY + 2 + (servesHttp ? STORE_CONNECTIONS : 0);
