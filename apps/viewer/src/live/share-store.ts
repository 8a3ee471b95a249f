import { GraphHistoryError } from '@graph-history/client';
import type { ShareApi } from '../api/share-api';
import type { Graph, GraphEvent, Node } from '../api/types';
import { NodeTree } from '../model/node-tree';
import { onConnection } from './connection';
import { followGraph, type LiveStatus } from './live-feed';

/** How long a changed node stays highlighted. */
export const FLASH_MS = 2_000;
/** Live, the graph is re-read this often even without events: `stale` flips as time passes. */
const STALE_CHECK_MS = 5_000;

/**
 * The state of one share page: the retained events, the newest graph, and the moment shown (its
 * graph and node tree). Live, the tree is kept current by applying each new event's changes; in
 * the past, the moment is read with `as_of`.
 */
export class ShareStore {
  events: GraphEvent[] = [];
  private eventPos = new Map<string, number>();
  head: Graph | null = null;
  shown: Graph | null = null;
  tree = new NodeTree();
  /** The event the tree reflects. */
  private treeAt: string | null = null;
  treeComplete = false;
  /** The moment asked for: null = live. */
  moment: string | null = null;
  status: LiveStatus = 'connecting';
  flashing = new Set<string>();
  error: string | null = null;
  loading = true;

  private listeners = new Set<() => void>();
  private stopFollow = new AbortController();
  private loadNo = 0;
  /** Called when the first load painted its first page of nodes. */
  private painted: () => void = () => undefined;
  /** Serialises the handling of live batches. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly api: ShareApi,
    readonly graphId: string,
  ) {}

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private notify(): void {
    this.listeners.forEach((fn) => fn());
  }

  get live(): boolean {
    return this.moment === null;
  }

  /** Index of an event among the retained ones. */
  position(eventId: string | null): number | null {
    return eventId === null ? null : (this.eventPos.get(eventId) ?? null);
  }

  async start(moment: string | null): Promise<void> {
    this.stopFollow.abort();
    this.stopFollow = new AbortController();
    const signal = this.stopFollow.signal;
    // the retained events are read once the first rows are painted, so they do not slow them
    const painted = new Promise<void>((resolve) => (this.painted = resolve));
    const shown = this.show(moment, true);
    await Promise.race([painted, shown]);
    try {
      this.setEvents(await this.api.events(this.graphId));
    } catch (err) {
      return this.fail(err);
    }
    await shown;
    this.applyPending();
    this.notify();
    const last = this.events[this.events.length - 1]?.id ?? null;
    const handlers = {
      onEvents: (evs: GraphEvent[]) => this.queue(evs),
      onGap: () => void this.start(this.moment),
    };
    followGraph(this.api, this.graphId, last, handlers, signal).catch((err) => this.fail(err));
    const staleCheck = setInterval(() => this.live && this.queue([]), STALE_CHECK_MS);
    const unsubscribe = onConnection((reached) => this.connection(reached));
    signal.addEventListener('abort', () => {
      clearInterval(staleCheck);
      unsubscribe();
    });
  }

  /** The connection to the service: reached or not (the client retries by itself meanwhile). */
  private connection(reached: boolean): void {
    const status: LiveStatus = reached ? 'live' : 'reconnecting';
    if (status === this.status) return;
    this.status = status;
    this.notify();
  }

  stop(): void {
    this.stopFollow.abort();
  }

  /** Shows the share as of an event id or time (null: live), read with `as_of`. */
  async show(moment: string | null, first = false): Promise<void> {
    const no = ++this.loadNo;
    this.moment = moment;
    this.loading = true;
    this.notify();
    try {
      let pages: Node[] = [];
      const [g, at] = await Promise.all([
        this.api.graph(this.graphId, moment),
        this.api.treeNodes(this.graphId, moment, (page) => {
          if (!first || no !== this.loadNo) return;
          // the first load paints each page as it arrives
          pages = pages.concat(page);
          this.tree = new NodeTree(pages);
          this.notify();
          this.painted();
        }),
      ]);
      if (no !== this.loadNo) return;
      this.tree = new NodeTree(at.nodes);
      this.treeAt = at.asOfEventId;
      this.treeComplete = true;
      this.shown = g;
      if (moment === null) {
        this.head = g;
        this.applyPending();
      }
      this.error = null;
    } catch (err) {
      if (no !== this.loadNo) return;
      if (err instanceof GraphHistoryError && moment !== null && err.status !== 401) {
        const note = `That moment cannot be shown: ${err.message} Showing the share live.`;
        await this.show(null);
        this.error = note; // after the live read, which clears earlier errors
        this.notify();
        return;
      }
      return this.fail(err);
    } finally {
      if (no === this.loadNo) {
        this.loading = false;
        this.notify();
      }
    }
  }

  private setEvents(events: GraphEvent[]): void {
    this.events = events;
    this.eventPos = new Map(events.map((e, i) => [e.id, i]));
  }

  /** New events (or none: a periodic check), handled in order with the graph read after them. */
  private queue(evs: GraphEvent[]): void {
    this.chain = this.chain
      .then(async () => this.onChange(await this.api.graph(this.graphId), evs))
      .catch(() => undefined); // the next batch or check reads again
  }

  private onChange(g: Graph, evs: GraphEvent[]): void {
    this.head = g;
    let all = this.events.concat(evs.filter((e) => !this.eventPos.has(e.id)));
    const first = g.retention.first_event_id;
    const cut = first ? all.findIndex((e) => e.id === first) : -1;
    if (cut > 0) all = all.slice(cut);
    this.setEvents(all);
    if (this.live) {
      this.applyPending();
      this.shown = g;
      const stale = this.tree.nodes.reduce((k, n) => k + (n.stale ? 1 : 0), 0);
      if (stale !== g.counts.stale && g.as_of_event_id === this.treeAt) void this.show(null);
    }
    this.notify();
  }

  /** Live: applies the events the tree does not reflect yet, and highlights what they changed. */
  private applyPending(): void {
    if (!this.live || !this.treeComplete) return;
    const at = this.treeAt === null ? -1 : this.eventPos.get(this.treeAt);
    if (at === undefined) return;
    const todo = this.events.slice(at + 1);
    if (!todo.length) return;
    const changed = this.tree.apply(todo);
    this.treeAt = todo[todo.length - 1]!.id;
    for (const id of changed) this.flashing.add(id);
    setTimeout(() => {
      for (const id of changed) this.flashing.delete(id);
      this.notify();
    }, FLASH_MS);
  }

  private fail(err: unknown): void {
    if ((err as Error).name === 'AbortError') return;
    this.error =
      err instanceof GraphHistoryError &&
      err.code === 'resource_missing' &&
      err.param === 'graph_id'
        ? 'No such share for this account.'
        : (err as Error).message;
    this.loading = false;
    this.notify();
  }
}
