import type {
  AsOf,
  EventListParams,
  GraphListParams,
  GraphRetrieveParams,
  NodeListParams,
  NodeRetrieveParams,
  NoticeListParams,
} from '../types/params.js';
import type { ApiQuery } from '../types/resources.js';

type Value = string | number | Date | readonly string[] | undefined;

type QueryOperation =
  'listGraphs' | 'retrieveGraph' | 'retrieveNode' | 'listNodes' | 'listEvents' | 'listNotices';

/** The API's name for each client parameter of an operation. */
type Names<P, Op extends QueryOperation> = { [K in keyof Required<P>]: keyof ApiQuery<Op> };

const PAGE = {
  limit: 'limit',
  startingAfter: 'starting_after',
  endingBefore: 'ending_before',
} as const;
const LAST_EVENT = {
  gt: 'last_event[gt]',
  gte: 'last_event[gte]',
  lt: 'last_event[lt]',
  lte: 'last_event[lte]',
} as const satisfies Record<
  keyof NonNullable<GraphListParams['lastEvent']>,
  keyof ApiQuery<'listGraphs'>
>;

export const GRAPH_LIST = PAGE satisfies Names<Omit<GraphListParams, 'lastEvent'>, 'listGraphs'>;
export const GRAPH_RETRIEVE = { asOf: 'as_of' } as const satisfies Names<
  GraphRetrieveParams,
  'retrieveGraph'
>;
export const NODE_RETRIEVE = {
  asOf: 'as_of',
  expand: 'expand[]',
  descendantsMaxDepth: 'descendants_max_depth',
} as const satisfies Names<NodeRetrieveParams, 'retrieveNode'>;
export const NODE_LIST = {
  ...PAGE,
  asOf: 'as_of',
  order: 'order',
  parentId: 'parent_id',
  ancestorId: 'ancestor_id',
  maxDepth: 'max_depth',
  kind: 'kind',
  state: 'state',
  expand: 'expand[]',
  descendantsMaxDepth: 'descendants_max_depth',
} as const satisfies Names<NodeListParams, 'listNodes'>;
export const EVENT_LIST = {
  ...PAGE,
  asOf: 'as_of',
  order: 'order',
  expand: 'expand[]',
  descendantsMaxDepth: 'descendants_max_depth',
} as const satisfies Names<EventListParams, 'listEvents'>;

export const NOTICE_LIST = { ...PAGE, graph: 'graph', type: 'type' } as const satisfies Names<
  NoticeListParams,
  'listNotices'
>;

/**
 * `true` when the client names every query parameter the OpenAPI document declares for `Op`, so
 * a parameter added to the API fails the build until the client offers it.
 */
type Covers<N, Op extends QueryOperation, Extra = never> = [
  Exclude<keyof ApiQuery<Op>, N[keyof N] | Extra>,
] extends [never]
  ? true
  : { missing: Exclude<keyof ApiQuery<Op>, N[keyof N] | Extra> };
type Holds<T extends true> = T;
export type _EveryQueryParameterIsOffered = [
  Holds<Covers<typeof GRAPH_LIST, 'listGraphs', (typeof LAST_EVENT)[keyof typeof LAST_EVENT]>>,
  Holds<Covers<typeof GRAPH_RETRIEVE, 'retrieveGraph'>>,
  Holds<Covers<typeof NODE_RETRIEVE, 'retrieveNode'>>,
  Holds<Covers<typeof NODE_LIST, 'listNodes'>>,
  Holds<Covers<typeof EVENT_LIST, 'listEvents'>>,
  Holds<Covers<typeof NOTICE_LIST, 'listNotices'>>,
];

/** `?a=1&expand[]=x&…` for `params` named by `names`; `lastEvent` becomes `last_event[op]`. */
export function queryString<P extends object>(
  params: P,
  names: { [K in keyof P]?: string },
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params) as [keyof P & string, Value | object][]) {
    if (value === undefined) continue;
    if (key === 'lastEvent') {
      for (const [op, bound] of Object.entries(value as Record<string, number | undefined>)) {
        if (bound !== undefined)
          search.append(
            LAST_EVENT[op as keyof typeof LAST_EVENT] ?? `last_event[${op}]`,
            String(bound),
          );
      }
      continue;
    }
    const name = names[key] ?? key;
    if (Array.isArray(value)) for (const item of value) search.append(name, String(item));
    else search.append(name, key === 'asOf' ? asOfValue(value as AsOf) : String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

function asOfValue(asOf: AsOf): string {
  return asOf instanceof Date ? String(asOf.getTime()) : String(asOf);
}
