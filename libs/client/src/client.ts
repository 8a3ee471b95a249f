import type { FetchLike } from './http/fetch-like.js';
import { RetryPolicy, type RetryOptions } from './http/retry-policy.js';
import { Transport } from './http/transport.js';
import { Events } from './resources/events.js';
import { Graphs } from './resources/graphs.js';
import { Nodes } from './resources/nodes.js';
import { Notices } from './resources/notices.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

export interface ClientOptions extends RetryOptions {
  /** A secret (`sk_…`) or restricted (`rk_…`) key. */
  apiKey: string;
  /** Where the read API answers, without `/api/v1`. Default `http://127.0.0.1:3000`. */
  baseUrl?: string;
  /** Time allowed for each attempt of a request. Default 30,000 ms. */
  timeoutMs?: number;
  /** A `fetch` to use instead of the platform's (`globalThis.fetch`). */
  fetch?: FetchLike;
}

/** A client of the graph-history read API. */
export class GraphHistory {
  readonly graphs: Graphs;
  readonly nodes: Nodes;
  readonly events: Events;
  readonly notices: Notices;

  constructor(options: ClientOptions) {
    if (typeof options?.apiKey !== 'string' || options.apiKey === '') {
      throw new TypeError('GraphHistory: apiKey is required (an sk_… or rk_… key).');
    }
    const platformFetch = (globalThis as { fetch?: FetchLike }).fetch;
    const fetch = options.fetch ?? (platformFetch && ((url, init) => platformFetch(url, init)));
    if (!fetch) throw new TypeError('GraphHistory: no fetch on this platform; pass options.fetch.');
    const transport = new Transport({
      apiKey: options.apiKey,
      baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
      timeoutMs: options.timeoutMs ?? 30_000,
      retry: new RetryPolicy(options),
      fetch,
    });
    this.graphs = new Graphs(transport);
    this.nodes = new Nodes(transport);
    this.events = new Events(transport);
    this.notices = new Notices(transport);
  }
}
