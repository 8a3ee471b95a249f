import type { LineRun } from '../line-adapter';
import type { GeminiState } from './state';

/** One `apply` or `flush` call of the Gemini adapter. */
export type Run = LineRun<GeminiState>;
