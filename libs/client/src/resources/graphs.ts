import { GRAPH_LIST, GRAPH_RETRIEVE, queryString } from '../http/query.js';
import type { RequestOptions, Transport } from '../http/transport.js';
import { PageList } from '../pagination/page-list.js';
import type { GraphListParams, GraphRetrieveParams } from '../types/params.js';
import type { Graph, List } from '../types/resources.js';
import { fetchBody, graphPath, pageFetcher } from './paths.js';

export class Graphs {
  constructor(private readonly transport: Transport) {}

  /**
   * The graphs the key can read, most recently active first. Auto-pagination pins the set with
   * `last_event[lte]` = the first page's newest `last_event` (unless you set `lastEvent`), so
   * graphs that become active meanwhile do not appear twice.
   */
  list(params: GraphListParams = {}, options: RequestOptions = {}): PageList<Graph> {
    return new PageList<Graph>({
      path: `/api/v1/graphs${queryString(params, GRAPH_LIST)}`,
      fetchPage: pageFetcher(this.transport),
      backward: params.endingBefore !== undefined,
      pin: (first): Record<string, string> => {
        const newest = first.data[0]?.last_event;
        return params.lastEvent === undefined && !params.endingBefore && newest != null
          ? { 'last_event[lte]': String(newest) }
          : {};
      },
      signal: options.signal,
    });
  }

  /** One graph: counts as of `asOf` (now when omitted) and the retention held now. */
  retrieve(
    graphId: string,
    params: GraphRetrieveParams = {},
    options: RequestOptions = {},
  ): Promise<Graph> {
    return fetchBody<Graph>(
      this.transport,
      `${graphPath(graphId)}${queryString(params, GRAPH_RETRIEVE)}`,
      options,
    );
  }
}

export type GraphList = List<Graph>;
