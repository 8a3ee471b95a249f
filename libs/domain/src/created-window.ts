import type { Rejection } from './watch-event';

/**
 * How far ahead of the receiving server's clock an event's `created` may be. Later events are
 * raised to the newest `created` and time-based reads refuse the future, so an event far ahead
 * would hold a graph's clock there; 15 minutes absorbs skewed client clocks.
 */
export const MAX_CREATED_AHEAD_MS = 15 * 60_000;

/** The rejection of a `created` beyond the window, or null. */
export function createdTooFarAhead(created: number, now: number): Rejection | null {
  if (created <= now + MAX_CREATED_AHEAD_MS) return null;
  return {
    param: 'created',
    message: `Invalid created: ${created} is more than 15 minutes ahead of the server's clock (${now}); send the time the event happened, in Unix milliseconds, and check the client's clock.`,
  };
}
