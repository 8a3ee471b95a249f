import type { GraphHistory, Node } from '@graph-history/client';

const MAX_LABEL = 40;

/** A short readable name of a node: its provider ref, cut from the left when long. */
export function nodeLabel(node: Pick<Node, 'provider_ref'>): string {
  const ref = node.provider_ref;
  return ref.length <= MAX_LABEL ? ref : `…${ref.slice(-(MAX_LABEL - 1))}`;
}

/** Labels of a graph's nodes by id, learnt from expanded events and looked up when unknown. */
export class NodeLabels {
  private readonly labels = new Map<string, string>();

  constructor(
    private readonly client: GraphHistory,
    private readonly graphId: string,
  ) {}

  learn(node: Pick<Node, 'id' | 'provider_ref'>): void {
    this.labels.set(node.id, nodeLabel(node));
  }

  /** The label of `nodeId`, read as of `eventId` (when the node surely exists) if not known yet. */
  async of(nodeId: string, eventId: string): Promise<string> {
    const known = this.labels.get(nodeId);
    if (known !== undefined) return known;
    const node = await this.client.nodes
      .retrieve(this.graphId, nodeId, { asOf: eventId })
      .catch(() => null);
    const label = node ? nodeLabel(node) : nodeId;
    this.labels.set(nodeId, label);
    return label;
  }
}
