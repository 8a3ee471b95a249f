import { readFileSync } from 'node:fs';
import { ConfigError, type Config } from '@graph-history/config';
import { DEFAULT_PRICES, parsePriceTable, type PriceTable } from '@graph-history/domain';

/** The price table MODEL_PRICES_FILE names, else the repository's; a bad file stops the process. */
export function modelPricesOf(config: Pick<Config, 'MODEL_PRICES_FILE'>): PriceTable {
  const path = config.MODEL_PRICES_FILE;
  if (path === undefined) return DEFAULT_PRICES;
  try {
    return parsePriceTable(JSON.parse(readFileSync(path, 'utf8')));
  } catch (err) {
    throw new ConfigError(
      `Invalid configuration: MODEL_PRICES_FILE=${JSON.stringify(path)}: ${(err as Error).message}`,
    );
  }
}
