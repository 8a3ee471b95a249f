import type { WatchEvent } from '@graph-history/domain';
import type { LineProblem } from '../adapter';
import type { GeminiState } from './state';

/** One `apply` call: the state it updates and what it produces. */
export interface Run {
  state: GeminiState;
  out: WatchEvent[];
  problems: LineProblem[];
}
