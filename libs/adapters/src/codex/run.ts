import type { WatchEvent } from '@graph-history/domain';
import type { LineProblem } from '../adapter';
import type { CodexState } from './state';

/** One `apply` call: the state it updates and what it produces. */
export interface Run {
  state: CodexState;
  out: WatchEvent[];
  problems: LineProblem[];
}
