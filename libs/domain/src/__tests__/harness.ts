import { AppliedEvent } from '../applied-event';
import { GraphState } from '../graph-state';
import { nodeId } from '../ids';
import { NodeRecord } from '../node';
import type { PublicNodeFields } from '../public/node.schema';
import { toPublicNode } from '../public-node';
import { applyEvent, createGraphState, RejectedEventError } from '../reducer';
import { EventOf, PayloadOf, Rejection, WatchEvent, WatchEventType } from '../watch-event';
import { snapshotState } from './state-snapshot';

export const SOURCE = {
  provider: 'claude-code',
  provider_version: '2.0.14',
  adapter: 'claude-code-jsonl/1',
};
export const GRAPH_ID = 7;
export const GRAPH_KEY = 'test-graph';

/** Applies hand-written events to one graph state, numbering them and advancing the clock. */
export class Harness {
  readonly state: GraphState = createGraphState(GRAPH_ID);
  now = 1_000;
  private keys = 0;

  event<T extends WatchEventType>(
    type: T,
    node: string,
    payload: PayloadOf<T>,
    created = this.now,
  ): EventOf<T> {
    return { key: `k${++this.keys}`, type, created, node, source: SOURCE, payload } as EventOf<T>;
  }

  apply<T extends WatchEventType>(
    type: T,
    node: string,
    payload: PayloadOf<T>,
    created = this.now,
  ): AppliedEvent {
    return applyEvent(
      this.state,
      this.event(type, node, payload, created) as WatchEvent,
      this.state.lastSeq + 1,
    );
  }

  /** Applies at `now + ms` and moves the clock there. */
  after<T extends WatchEventType>(
    ms: number,
    type: T,
    node: string,
    payload: PayloadOf<T>,
  ): AppliedEvent {
    this.now += ms;
    return this.apply(type, node, payload);
  }

  /** Expects a rejection that leaves the state as it was, and returns it. */
  reject<T extends WatchEventType>(type: T, node: string, payload: PayloadOf<T>): Rejection {
    const before = snapshotState(this.state);
    let error: unknown;
    try {
      this.apply(type, node, payload);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RejectedEventError);
    expect(snapshotState(this.state)).toEqual(before);
    return (error as RejectedEventError).rejection;
  }

  rec(ref: string): NodeRecord {
    const no = this.state.byRef.get(ref);
    if (no === undefined) throw new Error(`no node ${ref}`);
    return this.state.nodes.get(no)!;
  }

  pub(ref: string): PublicNodeFields {
    return toPublicNode(GRAPH_ID, this.rec(ref), GRAPH_KEY);
  }

  id(ref: string): string {
    return nodeId(GRAPH_ID, this.rec(ref).no);
  }
}
