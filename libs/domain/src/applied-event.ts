import { StoredEvent } from './event';
import { NodeRecord } from './node';
import { MessageRecord, SpawnRecord, TaskSnapshot, WaitClosure, WaitRecord } from './records';

/** What applying one WatchEvent produced: everything the apply worker writes for it. */
export interface AppliedEvent {
  event: StoredEvent;
  /** The event's stored public JSON (storedEventJson). */
  eventJson: string;
  /** The new version of every node the event changed, each valid from `event.seq`. */
  versions: NodeRecord[];
  /** Each version's stored public JSON (storedNodeJson). */
  nodeJson: string[];
  taskSnapshot: TaskSnapshot | null;
  spawn: SpawnRecord | null;
  /** Waits to insert. A wait on a node that had already ended comes closed (`endedSeq` = `seq`). */
  waitsOpened: WaitRecord[];
  /** Open waits to close (update by nodeNo, onNo, startedSeq). */
  waitsClosed: WaitClosure[];
  message: MessageRecord | null;
}
