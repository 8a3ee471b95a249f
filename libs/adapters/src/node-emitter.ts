import {
  hasTokens,
  type NodeState,
  type PayloadOf,
  type TokenCounts,
  type WatchEvent,
  type WatchEventType,
} from '@graph-history/domain';
import type { TranscriptAdapter } from './adapter';
import { eventKey } from './event-key';
import { eventSource } from './event-source';

type NodeEventType = Exclude<WatchEventType, 'session.started' | 'agent.spawned'>;

/** What an emitter needs to know of a node: its ref once created, and what it last said. */
export interface NodeMemo {
  ref?: string;
  ended?: boolean;
  state?: NodeState;
  attention?: boolean;
  /** Time of the node's last event (ms); activity is thinned against it. */
  lastEventAt: number;
  /** The provider's version as its records give it. */
  version?: string;
}

/** Who sends: the provider and the adapter (name and version). */
export interface EmitterSource {
  provider: string;
  adapter: Pick<TranscriptAdapter<unknown>, 'name' | 'version'>;
  /** At most one `activity` per node in this much transcript time. */
  activityIntervalMs: number;
}

/**
 * Emits the events of one transcript record on created, live nodes only. Keys are the record's
 * key parts and a counter (`<file id>:L<line number>:<n>` for a line), so converting the same
 * record again gives the same keys.
 */
export class NodeEmitter {
  private n = 0;

  constructor(
    private readonly source: EmitterSource,
    private readonly keyParts: ReadonlyArray<string | number>,
    readonly ts: number,
    private readonly out: WatchEvent[],
  ) {}

  /** The emitter of line `lineNo` of a file. */
  static ofLine(
    source: EmitterSource,
    fileId: string,
    lineNo: number,
    ts: number,
    out: WatchEvent[],
  ): NodeEmitter {
    return new NodeEmitter(source, [fileId, `L${lineNo}`], ts, out);
  }

  /** The record's next key (`<key parts>:<n>`); each event of the record takes one. */
  nextKey(): string {
    return eventKey(...this.keyParts, this.n++);
  }

  send<T extends NodeEventType>(type: T, memo: NodeMemo, payload: PayloadOf<T>): boolean {
    if (memo.ref === undefined || (memo.ended && type !== 'activity')) return false;
    this.out.push({
      key: this.nextKey(),
      type,
      created: this.ts,
      node: memo.ref,
      payload,
      source: eventSource(this.source.provider, this.source.adapter, memo.version),
    } as WatchEvent);
    memo.lastEventAt = Math.max(memo.lastEventAt, this.ts);
    if (type === 'status') memo.state = (payload as PayloadOf<'status'>).state;
    if (type === 'ended') memo.ended = true;
    if (type === 'attention.raised') memo.attention = true;
    if (type === 'attention.cleared') memo.attention = false;
    return true;
  }

  /**
   * Tokens of one provider record, keyed by that record (`key`) rather than by the line that
   * carries it, so the record written or read again is a duplicate. Also after the node ended
   * (a late record); never a report of no tokens.
   */
  usage(memo: NodeMemo, key: string, payload: PayloadOf<'usage.reported'> & TokenCounts): boolean {
    if (memo.ref === undefined || !hasTokens(payload)) return false;
    this.out.push({
      key,
      type: 'usage.reported',
      created: this.ts,
      node: memo.ref,
      payload,
      source: eventSource(this.source.provider, this.source.adapter, memo.version),
    });
    memo.lastEventAt = Math.max(memo.lastEventAt, this.ts);
    return true;
  }

  /** A turn's end: `status idle` once; another end while idle only updates the headline. */
  idle(memo: NodeMemo, summary?: string): void {
    if (memo.state !== 'idle') {
      this.send(
        'status',
        memo,
        summary === undefined ? { state: 'idle' } : { state: 'idle', summary },
      );
    } else if (summary !== undefined) this.send('activity', memo, { summary });
  }

  /** A status, unless the node is in that state already. */
  status(memo: NodeMemo, state: NodeState, summary?: string): void {
    if (memo.state === state && summary === undefined) return;
    this.send('status', memo, summary === undefined ? { state } : { state, summary });
  }

  /** Marks a node alive (and sets its headline) unless it had an event very recently. */
  activity(memo: NodeMemo, summary?: string): void {
    if (this.ts - memo.lastEventAt < this.source.activityIntervalMs) return;
    this.send('activity', memo, summary === undefined ? {} : { summary });
  }

  clearAttention(memo: NodeMemo): void {
    if (memo.attention) this.send('attention.cleared', memo, {});
  }
}

type Creation =
  | { type: 'session.started'; payload: PayloadOf<'session.started'> }
  | { type: 'agent.spawned'; payload: PayloadOf<'agent.spawned'> };

/** A node's creation, keyed `<ref>:started` / `<ref>:spawned` whichever line makes it. */
export function pushCreation(
  source: EmitterSource,
  out: WatchEvent[],
  memo: NodeMemo & { ref: string },
  creation: Creation,
  created: number,
): void {
  const suffix = creation.type === 'session.started' ? 'started' : 'spawned';
  out.push({
    key: eventKey(memo.ref, suffix),
    node: memo.ref,
    created,
    ...creation,
    source: eventSource(source.provider, source.adapter, memo.version),
  } as WatchEvent);
  memo.lastEventAt = Math.max(memo.lastEventAt, created);
  memo.state = 'working'; // the state ingest gives a created node
}
