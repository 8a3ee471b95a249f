import { deleteOwn } from '../own-record';
import type { SessionMemo } from './state';

/**
 * Forgets tool calls of node `ref` that will get no result: at the end of a session's turn
 * (blocking polls may still be answered then) or when an agent ends (everything).
 */
export function forgetOpenCalls(session: SessionMemo, ref: string, keepPolls: boolean): void {
  for (const [id, memo] of Object.entries(session.tools)) {
    if (memo.node === ref && !(keepPolls && memo.tool.op === 'task_output'))
      deleteOwn(session.tools, id);
  }
}
