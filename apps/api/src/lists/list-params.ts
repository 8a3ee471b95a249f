import { parameterInvalid } from '@graph-history/http';
import { QueryParams } from '../query/query-params';
import { readInteger, readString } from '../query/query-values';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** The parameters every list shares. */
export const LIST_PARAMS = ['limit', 'starting_after', 'ending_before'] as const;

export interface PageParams {
  limit: number;
  startingAfter?: string;
  endingBefore?: string;
}

export function readPageParams(q: QueryParams): PageParams {
  const limit = readInteger(q, 'limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT;
  const startingAfter = readString(q, 'starting_after');
  const endingBefore = readString(q, 'ending_before');
  if (startingAfter !== undefined && endingBefore !== undefined) {
    throw parameterInvalid(
      'ending_before',
      'Pass either starting_after or ending_before, not both.',
    );
  }
  return { limit, startingAfter, endingBefore };
}
