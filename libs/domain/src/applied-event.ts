import { StoredEvent } from './event';
import { NodeRecord } from './node';
import { MessageRecord, SpawnRecord, TaskSnapshot, WaitClosure, WaitRecord } from './records';

/** What applying one WatchEvent produced: everything the apply worker writes for it. */
export interface AppliedEvent {
  event: StoredEvent;
  /** The new version of every node the event changed, each valid from `event.seq`. */
  versions: NodeRecord[];
  taskSnapshot: TaskSnapshot | null;
  spawn: SpawnRecord | null;
  waitsOpened: WaitRecord[];
  waitsClosed: WaitClosure[];
  message: MessageRecord | null;
}
