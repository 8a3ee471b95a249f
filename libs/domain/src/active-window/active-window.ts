import type { NodeRecord } from '../node';
import { MinPairHeap } from './min-pair-heap';

/** What the window reads of a node (version). */
export type WindowNode = Pick<NodeRecord, 'no' | 'state' | 'lastEvent'>;

/** Below this many heap entries the heap is never rebuilt (see `note`). */
const COMPACT_MIN = 64;

/**
 * A graph's working nodes that are not stale: each one's `lastEvent`, by node number, with how
 * many there are at any instant `since` (working nodes last touched at or after it), for an apply
 * that needs this count before every event. `since` only moves forward, so a node whose
 * `lastEvent` falls behind it is dropped for good: a min-heap of (lastEvent, node) finds those,
 * its entries left behind by a node's newer version, or by the node leaving, are skipped when they
 * surface (an entry counts only while the map still holds its value). Any order of `lastEvent`
 * values is fine; `since` going back is refused.
 */
export class ActiveWindow {
  private readonly active = new Map<number, number>();
  private readonly heap = new MinPairHeap();
  private since = Number.NEGATIVE_INFINITY;

  /** The window of a state's nodes (its `nodes.values()`), before any `since` was asked for. */
  static of(nodes: Iterable<WindowNode>): ActiveWindow {
    const window = new ActiveWindow();
    for (const node of nodes)
      if (node.state === 'working') window.active.set(node.no, node.lastEvent);
    window.heap.reset(window.pairs());
    return window;
  }

  /**
   * How many working nodes were last touched at or after `since`, which must not be earlier than
   * the `since` of the call before.
   */
  countSince(since: number): number {
    if (since < this.since)
      throw new RangeError(`Active window: since ${since} is before the last one, ${this.since}.`);
    this.since = since;
    const { active, heap } = this;
    for (let at = heap.topKey; at !== undefined && at < since; at = heap.topKey) {
      const no = heap.topValue!;
      if (active.get(no) === at) active.delete(no);
      heap.pop();
    }
    return active.size;
  }

  /** Takes a node's new version (any node: working or not, new or known) into account. */
  note(node: WindowNode): void {
    const { active, heap } = this;
    if (node.state !== 'working' || node.lastEvent < this.since) {
      active.delete(node.no);
    } else if (active.get(node.no) !== node.lastEvent) {
      active.set(node.no, node.lastEvent);
      heap.push(node.lastEvent, node.no);
    }
    // entries of nodes gone or moved on pile up while `since` stands still: drop them at once
    if (heap.size > COMPACT_MIN && heap.size > 2 * active.size) heap.reset(this.pairs());
  }

  private *pairs(): Iterable<[number, number]> {
    for (const [no, at] of this.active) yield [at, no];
  }
}
