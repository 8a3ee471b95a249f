import {
  hasTokens,
  LIMITS,
  type PayloadOf,
  type WatchEvent,
  type WatchEventType,
} from '@graph-history/domain';
import { eventKey } from '../event-key';
import { createdKey, endedKey, titleKey } from './fact-keys';
import { eventSource } from '../event-source';
import { getOwn, setOwn } from '../own-record';
import type { ParsedLine, UsageFact } from './line';
import { type NodeMemo, type SessionMemo, newNodeMemo } from './state';

export const PROVIDER = 'claude-code';
export const ADAPTER_NAME = 'claude-code-jsonl';
export const ADAPTER_VERSION = 1;
const ADAPTER = { name: ADAPTER_NAME, version: ADAPTER_VERSION };

/**
 * Usage reports remembered per session, so that the other lines of a message (written together)
 * send nothing; a report sent again anyway (a re-read) is a duplicate by its key. A report does
 * not hold back the node's next activity (lastEventAt).
 */
const USAGE_SENT_MAX = 64;

/** At most one `activity` per node in this much transcript time; other events are never held back. */
export const ACTIVITY_INTERVAL_MS = 15_000;

type NodeEventType = Exclude<WatchEventType, 'session.started' | 'agent.spawned'>;

/**
 * Emits the events of one transcript line. It is the single gate that keeps the stream valid for
 * ingest.md: events only on known nodes, nothing after a node's end, each ref created once.
 * Keys are `<file id>:<line uuid>:<n>`; the facts hooks report too have fact keys (fact-keys.ts):
 * creations `<ref>:started` / `<ref>:spawned`, an end `<ref>:ended`, a session's title
 * `<ref>:title`, so a fact gets the same key whichever line (or hook) sends it.
 */
export class Emitter {
  private n = 0;

  constructor(
    readonly sessionId: string,
    readonly session: SessionMemo,
    readonly line: ParsedLine,
    readonly ts: number,
    private readonly out: WatchEvent[],
  ) {}

  node(ref: string): NodeMemo | undefined {
    return getOwn(this.session.nodes, ref);
  }

  /** True when `ref` exists and has not ended. */
  live(ref: string): boolean {
    const node = this.node(ref);
    return node !== undefined && !node.ended;
  }

  /** `factKey`: the key of a fact hooks report too (fact-keys.ts), else the line's own key. */
  send<T extends NodeEventType>(
    type: T,
    ref: string,
    payload: PayloadOf<T>,
    factKey?: string,
  ): boolean {
    const node = this.node(ref);
    if (!node || node.ended) return false;
    const lineKey = eventKey(this.line.fileId, this.line.lineId, this.n++);
    const key =
      factKey ?? (type === 'ended' ? endedKey(ref) : type === 'title' ? titleKey(ref) : lineKey);
    this.push(key, type, ref, payload, this.ts);
    node.lastEventAt = Math.max(node.lastEventAt, this.ts);
    if (type === 'status') node.state = (payload as PayloadOf<'status'>).state;
    if (type === 'ended') {
      node.ended = true;
      node.state = (payload as PayloadOf<'ended'>).state;
    }
    if (type === 'attention.raised') node.attention = true;
    if (type === 'attention.cleared') node.attention = false;
    return true;
  }

  /**
   * Reports a message's tokens once: the key is the file and the message (or request) id, so the
   * message's other lines, and the same line read again, are duplicates. Also after the node ended
   * (a late line); never a report of no tokens.
   */
  usage(ref: string, fact: UsageFact): void {
    const node = this.node(ref);
    if (!node || !hasTokens(fact.tokens)) return;
    const sent = (this.session.usageSent ??= []);
    const id = `${this.line.fileId}:${fact.id}`;
    if (sent.includes(id)) return;
    sent.push(id);
    if (sent.length > USAGE_SENT_MAX) sent.shift();
    const payload: PayloadOf<'usage.reported'> = { model: fact.model, ...fact.tokens };
    if (fact.messageId) payload.message_id = fact.messageId;
    if (fact.requestId) payload.request_id = fact.requestId;
    this.push(
      eventKey(this.line.fileId, 'usage', fact.id),
      'usage.reported',
      ref,
      payload,
      this.ts,
    );
  }

  /** Marks a node alive (and sets its headline) unless it had an event very recently. */
  activity(ref: string, summary?: string): void {
    const node = this.node(ref);
    if (!node || node.ended || this.ts - node.lastEventAt < ACTIVITY_INTERVAL_MS) return;
    this.send('activity', ref, summary === undefined ? {} : { summary });
  }

  startSession(payload: PayloadOf<'session.started'>): boolean {
    const ref = this.sessionId;
    if (this.node(ref)) return false;
    this.push(createdKey(ref, 'started'), 'session.started', ref, payload, this.ts);
    setOwn(this.session.nodes, ref, newNodeMemo('session', this.ts));
    return true;
  }

  /**
   * Creates an agent under a live parent, dated by its spawn call. Under a parent at the deepest
   * level ingest allows (LIMITS.treeDepth) it goes under the parent's nearest live ancestor that
   * is not, as an `inferred` link, so that the stream is never refused.
   */
  spawnAgent(
    ref: string,
    payload: PayloadOf<'agent.spawned'>,
    ts: number,
    version: string,
  ): boolean {
    if (this.node(ref) || !this.live(payload.parent)) return false;
    const parent = this.roomyAncestor(payload.parent);
    if (parent === undefined) return false;
    const placed: PayloadOf<'agent.spawned'> =
      parent === payload.parent ? payload : { ...payload, parent, link_method: 'inferred' };
    this.push(createdKey(ref, 'spawned'), 'agent.spawned', ref, placed, ts, version);
    const depth = (this.node(parent)!.depth ?? 0) + 1;
    setOwn(this.session.nodes, ref, { ...newNodeMemo('agent', ts), parent, depth });
    return true;
  }

  /** `ref` or its nearest ancestor that is live and above the deepest level, if any. */
  private roomyAncestor(ref: string): string | undefined {
    for (let at: string | undefined = ref; at !== undefined; at = this.node(at)?.parent) {
      const node = this.node(at);
      if (node && !node.ended && (node.depth ?? 0) < LIMITS.treeDepth) return at;
    }
    return undefined;
  }

  private push(
    key: string,
    type: WatchEventType,
    node: string,
    payload: object,
    created: number,
    version?: string,
  ): void {
    const providerVersion = version ?? this.line.version ?? this.session.version;
    this.out.push({
      key,
      type,
      created,
      node,
      source: eventSource(PROVIDER, ADAPTER, providerVersion),
      payload,
    } as WatchEvent);
  }
}
