import {
  changeJson,
  encodeNode,
  reencodeNode,
  storedEventJsonOf,
  type AppliedEvent,
  type EncodedNode,
} from '@graph-history/domain';

/** The stored public JSON of one applied event: its event row's and each version row's. */
export interface AppliedJson {
  /** The event's `public_json` (storedEventJson). */
  eventJson: string;
  /** Each version's `public_json` (storedNodeJson), in `versions` order. */
  nodeJson: string[];
}

/**
 * Turns one graph's applied events into their stored public JSON, byte for byte storedEventJson
 * and storedNodeJson. It keeps each node's last encoding, so a node's next version re-encodes
 * only the fields its change names. The apply keeps one per cached graph (CachedGraph) and
 * gives it the graph's events in seq order; any other event (a run encoded again, one after a gap)
 * first drops what it kept, so its nodes are encoded afresh.
 */
export class AppliedJsonEncoder {
  /** Each node's encoding as of `seq`. */
  private readonly last = new Map<number, EncodedNode>();
  private seq = 0;

  constructor(readonly graphId: number) {}

  encode({ event, versions, presented }: AppliedEvent): AppliedJson {
    if (event.seq !== this.seq + 1) this.last.clear();
    this.seq = event.seq;
    const changesJson: string[] = [];
    const nodeJson: string[] = [];
    for (let i = 0; i < versions.length; i++) {
      const change = event.changes[i]!;
      const before = (!change.created && this.last.get(versions[i]!.no)) || null;
      const encoded = before
        ? reencodeNode(before, presented[i]!, change.fields)
        : encodeNode(presented[i]!);
      this.last.set(versions[i]!.no, encoded);
      changesJson.push(changeJson(change, before, encoded));
      nodeJson.push(encoded.json);
    }
    return { eventJson: storedEventJsonOf(this.graphId, event, changesJson), nodeJson };
  }
}
