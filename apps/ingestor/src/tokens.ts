/** Injection tokens of the ingestor (CONFIG and DB come from @graph-history/http's CoreModule). */
export const PRODUCER_REDIS = Symbol('PRODUCER_REDIS');
export const WORKER_REDIS = Symbol('WORKER_REDIS');
export const INGESTOR_OPTIONS = Symbol('INGESTOR_OPTIONS');

export interface IngestorOptions {
  /** Run the apply/trim workers and the sweeper in this process (the HTTP endpoint always runs). */
  runWorkers: boolean;
  /** The apply shard whose queue this process's apply worker takes (see applyQueueName); 0 if unset. */
  applyShard?: number;
}

/** The PriceTable the reducer prices usage with (model-prices.ts; MODEL_PRICES_FILE replaces it). */
export const MODEL_PRICES = Symbol('MODEL_PRICES');
