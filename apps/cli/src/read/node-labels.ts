import type { GraphHistory, Node } from '@graph-history/client';

const MAX_TEXT = 40;

type Labelled = Pick<Node, 'provider_ref' | 'kind' | 'title' | 'agent_type' | 'purpose'>;

const quoted = (text: string): string => {
  const line = text.split('\n')[0]!.trim();
  return JSON.stringify(line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT - 1)}…` : line);
};

/**
 * A readable name of a node: a session's title (`"Fix the login bug"`), an agent's type and
 * purpose (`Explore "Find the auth code"`); without them, its whole provider ref.
 */
export function nodeLabel(node: Labelled): string {
  if (node.kind === 'session') return node.title ? quoted(node.title) : node.provider_ref;
  if (!node.agent_type) return node.provider_ref;
  return node.purpose ? `${node.agent_type} ${quoted(node.purpose)}` : node.agent_type;
}

/** Labels of a graph's nodes by id, learnt from expanded events and looked up when unknown. */
export class NodeLabels {
  private readonly labels = new Map<string, string>();

  constructor(
    private readonly client: GraphHistory,
    private readonly graphId: string,
  ) {}

  learn(node: Labelled & Pick<Node, 'id'>): void {
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
