import type { LineRun } from '../line-adapter';
import type { CodexState } from './state';

/** One `apply` or `flush` call of the Codex adapter. */
export type Run = LineRun<CodexState>;
