import { StoredEvent } from './event';
import { NodeRecord } from './node';
import type { PublicNode } from './public/node.schema';
import { MessageRecord, SpawnRecord, TaskSnapshot, WaitClosure, WaitRecord } from './records';

/**
 * What applying one WatchEvent produced: the records the apply worker writes for it (their stored
 * JSON is the apply's to encode: AppliedJsonEncoder in libs/db). `event.changes[i]` is the change
 * of `versions[i]`.
 */
export interface AppliedEvent {
  event: StoredEvent;
  /** The new version of every node the event changed, each valid from `event.seq`. */
  versions: NodeRecord[];
  /**
   * Each version as the read API presents it, per-read fields blank (what its stored JSON holds):
   * the values its change was taken from.
   */
  presented: PublicNode[];
  taskSnapshot: TaskSnapshot | null;
  spawn: SpawnRecord | null;
  /** Waits to insert. A wait on a node that had already ended comes closed (`endedSeq` = `seq`). */
  waitsOpened: WaitRecord[];
  /** Open waits to close (update by nodeNo, onNo, startedSeq). */
  waitsClosed: WaitClosure[];
  message: MessageRecord | null;
}
