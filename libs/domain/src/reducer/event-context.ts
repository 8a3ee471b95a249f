import { GraphState } from '../graph-state';
import { NodeRecord } from '../node';
import { MessageRecord, SpawnRecord, TaskSnapshot, WaitClosure, WaitRecord } from '../records';

/**
 * The work area of one event: records each touched node as it was before the event (null for a
 * node the event creates) and collects the rows the event produces. Nested objects of a NodeRecord
 * (attention, taskCounts, blocked) are replaced, never mutated, so a shallow copy is a snapshot.
 */
export class EventContext {
  readonly before = new Map<number, NodeRecord | null>();
  taskSnapshot: TaskSnapshot | null = null;
  spawn: SpawnRecord | null = null;
  readonly waitsOpened: WaitRecord[] = [];
  readonly waitsClosed: WaitClosure[] = [];
  message: MessageRecord | null = null;

  constructor(
    readonly state: GraphState,
    readonly seq: number,
    /** The event's stored `created`. */
    readonly created: number,
  ) {}

  node(no: number): NodeRecord {
    return this.state.nodes.get(no)!;
  }

  /** The node, ready to be changed in place. */
  edit(no: number): NodeRecord {
    const rec = this.node(no);
    if (!this.before.has(no)) this.before.set(no, { ...rec });
    return rec;
  }

  add(rec: NodeRecord): void {
    this.state.nodes.set(rec.no, rec);
    this.state.byRef.set(rec.ref, rec.no);
    this.before.set(rec.no, null);
  }
}
