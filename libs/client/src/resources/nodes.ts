import { NODE_LIST, NODE_RETRIEVE, queryString } from '../http/query.js';
import type { RequestOptions, Transport } from '../http/transport.js';
import { PageList } from '../pagination/page-list.js';
import type {
  ExpandedListNode,
  ExpandedNode,
  NodeExpand,
  NodeListExpand,
} from '../types/expand.js';
import type { NodeListParams, NodeRetrieveParams } from '../types/params.js';
import { fetchBody, graphPath, pageFetcher } from './paths.js';

export class Nodes {
  constructor(private readonly transport: Transport) {}

  /** A node as it stood at `asOf` (now when omitted), with the expansions asked for. */
  retrieve<const E extends NodeExpand = never>(
    graphId: string,
    nodeId: string,
    params: NodeRetrieveParams<E> = {},
    options: RequestOptions = {},
  ): Promise<ExpandedNode<E>> {
    const path = `${graphPath(graphId)}/nodes/${encodeURIComponent(nodeId)}${queryString(params, NODE_RETRIEVE)}`;
    return fetchBody<ExpandedNode<E>>(this.transport, path, options);
  }

  /** The graph's nodes at one moment (`asOf`, else the newest event), filtered and ordered. */
  list<const E extends NodeListExpand = never>(
    graphId: string,
    params: NodeListParams<E> = {},
    options: RequestOptions = {},
  ): PageList<ExpandedListNode<E>> {
    return new PageList<ExpandedListNode<E>>({
      path: `${graphPath(graphId)}/nodes${queryString(params, NODE_LIST)}`,
      fetchPage: pageFetcher(this.transport),
      backward: params.endingBefore !== undefined,
      signal: options.signal,
    });
  }
}
