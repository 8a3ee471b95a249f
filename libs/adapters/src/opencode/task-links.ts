import { isObject, str } from '../json';
import { setOwn } from '../own-record';
import { firstLine } from '../text';
import type { RowLine } from './row-line';
import type { OpencodeState } from './state';

/**
 * Notes a `task` tool part naming the session it runs (`state.metadata.sessionId`), before rows
 * are applied: the sub-agent's session row may be applied first.
 */
export function noteTaskLink(state: OpencodeState, line: RowLine): void {
  if (line.table !== 'part' || line.data['type'] !== 'tool' || line.data['tool'] !== 'task') return;
  const call = isObject(line.data['state']) ? line.data['state'] : {};
  const metadata = isObject(call['metadata']) ? call['metadata'] : {};
  const child = str(metadata['sessionId']);
  if (child === undefined) return;
  const input = isObject(call['input']) ? call['input'] : {};
  const purpose = str(input['description']) ?? str(input['prompt']);
  setOwn(state.tasks, child, {
    callerSession: line.session,
    callId: str(line.data['callID']) ?? line.id,
    agentType: str(input['subagent_type']) ?? 'subagent',
    ...(purpose !== undefined ? { purpose: firstLine(purpose, 2_000)! } : {}),
  });
}
