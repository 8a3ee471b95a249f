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

/** A node's last encoding, and the seq of the event that produced it. */
interface LastEncoding {
  seq: number;
  encoded: EncodedNode;
}

/**
 * Turns one graph's applied events into their stored public JSON, byte for byte storedEventJson
 * and storedNodeJson. It keeps each node's last encoding, so a node's next version re-encodes
 * only the fields its change names; it must see a graph's events in seq order (the apply keeps
 * one per cached graph, see CachedGraph). A node's encoding from an event at or after the one
 * being encoded (a run encoded again) is not used.
 */
export class AppliedJsonEncoder {
  private readonly last = new Map<number, LastEncoding>();

  constructor(readonly graphId: number) {}

  encode({ event, versions, presented }: AppliedEvent): AppliedJson {
    const changesJson: string[] = [];
    const nodeJson: string[] = [];
    for (let i = 0; i < versions.length; i++) {
      const change = event.changes[i]!;
      const kept = change.created ? undefined : this.last.get(versions[i]!.no);
      const before = kept && kept.seq < event.seq ? kept.encoded : null;
      const encoded = before
        ? reencodeNode(before, presented[i]!, change.fields)
        : encodeNode(presented[i]!);
      this.last.set(versions[i]!.no, { seq: event.seq, encoded });
      changesJson.push(changeJson(change, before, encoded));
      nodeJson.push(encoded.json);
    }
    return { eventJson: storedEventJsonOf(this.graphId, event, changesJson), nodeJson };
  }
}
