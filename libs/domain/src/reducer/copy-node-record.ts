import { NodeRecord } from '../node';

/** A copy of a node that shares no object with the original. */
export const copyNodeRecord = (rec: NodeRecord): NodeRecord => ({
  ...rec,
  attention: rec.attention && { ...rec.attention },
  taskCounts: { ...rec.taskCounts },
  blocked: rec.blocked && { ...rec.blocked, onNos: [...rec.blocked.onNos] },
});
