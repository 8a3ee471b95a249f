import { type PayloadOf, type WatchEvent, type WatchEventType } from '@graph-history/domain';
import { eventKey } from '../event-key';
import { eventSource } from '../event-source';
import type { RolloutLine } from './rollout-line';
import type { ThreadMemo } from './state';

export const PROVIDER = 'codex';
export const ADAPTER_NAME = 'codex-rollout';
export const ADAPTER_VERSION = 1;

/** At most one `activity` per node in this much rollout time; other events are never held back. */
export const CODEX_ACTIVITY_INTERVAL_MS = 15_000;

type NodeEventType = Exclude<WatchEventType, 'session.started' | 'agent.spawned'>;

const ADAPTER = { name: ADAPTER_NAME, version: ADAPTER_VERSION };

/**
 * Emits the events of one rollout line on created, live nodes only. Keys are
 * `<thread id>:L<line number>:<n>`; creations use `<ref>:started` / `<ref>:spawned`.
 */
export class Emitter {
  private n = 0;

  constructor(
    private readonly line: RolloutLine,
    readonly ts: number,
    private readonly out: WatchEvent[],
  ) {}

  send<T extends NodeEventType>(type: T, memo: ThreadMemo, payload: PayloadOf<T>): boolean {
    if (memo.ref === undefined || (memo.ended && type !== 'activity')) return false;
    this.push(
      eventKey(this.line.fileId, `L${this.line.lineNo}`, this.n++),
      type,
      memo.ref,
      payload,
      this.ts,
      memo.version,
    );
    memo.lastEventAt = Math.max(memo.lastEventAt, this.ts);
    if (type === 'status') memo.state = (payload as PayloadOf<'status'>).state;
    if (type === 'ended') memo.ended = true;
    if (type === 'attention.raised') memo.attention = true;
    if (type === 'attention.cleared') memo.attention = false;
    return true;
  }

  /** Reports tokens of the node, also after it ended (a `token_count` after its last turn). */
  usage(memo: ThreadMemo, payload: PayloadOf<'usage.reported'>): void {
    if (memo.ref === undefined) return;
    const key = eventKey(this.line.fileId, `L${this.line.lineNo}`, this.n++);
    this.push(key, 'usage.reported', memo.ref, payload, this.ts, memo.version);
    memo.lastEventAt = Math.max(memo.lastEventAt, this.ts);
  }

  /** Marks a node alive (and sets its headline) unless it had an event very recently. */
  activity(memo: ThreadMemo, summary?: string): void {
    if (this.ts - memo.lastEventAt < CODEX_ACTIVITY_INTERVAL_MS) return;
    this.send('activity', memo, summary === undefined ? {} : { summary });
  }

  clearAttention(memo: ThreadMemo): void {
    if (memo.attention) this.send('attention.cleared', memo, {});
  }

  private push(
    key: string,
    type: WatchEventType,
    node: string,
    payload: object,
    created: number,
    version: string | undefined,
  ): void {
    pushEvent(this.out, { key, type, created, node, payload }, version);
  }
}

function pushEvent(
  out: WatchEvent[],
  event: { key: string; type: WatchEventType; created: number; node: string; payload: object },
  version: string | undefined,
): void {
  out.push({ ...event, source: eventSource(PROVIDER, ADAPTER, version) } as WatchEvent);
}

type Creation =
  | { type: 'session.started'; payload: PayloadOf<'session.started'> }
  | { type: 'agent.spawned'; payload: PayloadOf<'agent.spawned'> };

/** A node's creation, keyed `<ref>:started` / `<ref>:spawned` whichever line makes it. */
export function pushCreation(
  out: WatchEvent[],
  ref: string,
  creation: Creation,
  created: number,
  version: string | undefined,
): void {
  const suffix = creation.type === 'session.started' ? 'started' : 'spawned';
  pushEvent(out, { key: eventKey(ref, suffix), node: ref, created, ...creation }, version);
}
