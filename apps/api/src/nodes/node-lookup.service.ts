import { Injectable } from '@nestjs/common';
import { decodeId, eventId, type NodeRecord } from '@graph-history/domain';
import { GraphHead, NodeReadRepository } from '@graph-history/db';
import { resourceMissing } from '@graph-history/http';
import { nodeNotYetCreated } from '../api-errors';
import { Moment } from '../as-of/moment';
import { quote } from '../query/query-values';

/** Finds a node named by a request parameter (`node_id`, `parent_id`, a cursor…) as of a moment. */
@Injectable()
export class NodeLookupService {
  constructor(private readonly nodes: NodeReadRepository) {}

  /** The node, 404 node_not_yet_created when it comes later, else 404 resource_missing on `param`. */
  async find(graph: GraphHead, moment: Moment, id: string, param: string): Promise<NodeRecord> {
    const no = this.nodeNo(graph, id, param);
    const rec = moment.seq === 0 ? null : await this.nodes.findAt(graph.graphId, no, moment.seq);
    if (rec) return rec;
    const createdSeq = await this.nodes.createdSeq(graph.graphId, no);
    if (createdSeq !== null && createdSeq > moment.seq)
      throw nodeNotYetCreated(id, eventId(graph.graphId, createdSeq));
    throw missing(id, param);
  }

  /** The node number an id encodes, when it is a node id of this graph. */
  nodeNo(graph: GraphHead, id: string, param: string): number {
    const no = this.numberOf(graph, id);
    if (no === null) throw missing(id, param);
    return no;
  }

  /** The node number an id encodes, or null when it is not a node id of this graph. */
  numberOf(graph: GraphHead, id: string): number | null {
    const decoded = decodeId('node', id);
    return decoded && decoded.graphId === graph.graphId ? decoded.n : null;
  }
}

const missing = (id: string, param: string) =>
  resourceMissing(param, `No such node: ${quote(id)}.`);
