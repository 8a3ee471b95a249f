import { Injectable } from '@nestjs/common';
import type { NodeRecord } from '@graph-history/domain';
import {
  GraphHead,
  NodeAt,
  NodeItemsRepository,
  NodeReadRepository,
  RecordLists,
} from '@graph-history/db';
import { ExpandBudget } from './expand-budget';
import { NodeExpansion } from './expand-paths';
import { childrenUrl, descendantsUrl, ListContext, nodeListUrl } from './expand-urls';
import { presentMessage, presentSpawn, presentTask, presentWait } from './node-items.presenter';
import { nodeSlot, NodeSlot } from './node-slot';

export const CHILDREN_PAGE = 100;
export const DESCENDANTS_PAGE = 1000;

const REFS = {
  parent: (r: NodeRecord) => r.parentNo,
  root: (r: NodeRecord) => r.rootNo,
  session: (r: NodeRecord) => r.sessionNo,
  requested_by: (r: NodeRecord) => r.requestedByNo,
} as const;
const REF_KEYS = Object.keys(REFS) as (keyof typeof REFS)[];

interface Level {
  graph: GraphHead;
  slots: NodeSlot[];
  budget: ExpandBudget;
  descendantsMaxDepth: number | null;
  /** Node slots this level added, to expand on the next level. */
  produced: NodeSlot[];
}

/**
 * Fills in the expansions of nodes, one level of the expand tree at a time, with one batched
 * query per kind of expansion and level, never more than the budget's objects.
 */
@Injectable()
export class NodeExpander {
  constructor(
    private readonly nodes: NodeReadRepository,
    private readonly items: NodeItemsRepository,
  ) {}

  async expand(
    graph: GraphHead,
    roots: NodeSlot[],
    descendantsMaxDepth: number | null,
    budget = new ExpandBudget(),
  ): Promise<void> {
    let slots = roots.filter((s) => s.tree.size > 0);
    while (slots.length > 0) {
      const level: Level = { graph, slots, budget, descendantsMaxDepth, produced: [] };
      await Promise.all([
        this.expandRefs(level),
        this.expandChildren(level),
        this.expandDescendants(level),
        this.expandItems(level),
      ]);
      slots = level.produced.filter((s) => s.tree.size > 0);
    }
  }

  /** parent, root, session, requested_by and blocked.on: nodes by number, in one query. */
  private async expandRefs(level: Level): Promise<void> {
    const wanted: { slot: NodeSlot; key: NodeExpansion; no: number }[] = [];
    for (const slot of level.slots) {
      for (const key of REF_KEYS) {
        const no = slot.tree.has(key) ? REFS[key](slot.rec) : null;
        if (no !== null) wanted.push({ slot, key, no });
      }
      if (slot.tree.has('blocked.on')) {
        for (const no of slot.rec.blocked?.onNos ?? [])
          wanted.push({ slot, key: 'blocked.on', no });
      }
    }
    if (wanted.length === 0) return;
    level.budget.take(wanted.length);
    const fetch = wanted.filter((w) => w.no !== w.slot.rec.no);
    const recs = await this.nodes.findManyAt(
      level.graph.graphId,
      fetch.map((w): NodeAt => ({ nodeNo: w.no, seq: w.slot.moment.seq })),
    );
    const found = new Map(fetch.map((w, i) => [w, recs[i] ?? null]));
    for (const w of wanted) {
      const rec = w.no === w.slot.rec.no ? w.slot.rec : found.get(w)!;
      if (!rec) continue;
      const child = nodeSlot(rec, w.slot.moment, w.slot.tree.get(w.key));
      level.produced.push(child);
      if (w.key !== 'blocked.on') {
        w.slot.expanded.set(w.key, { kind: 'node', slot: child });
        continue;
      }
      const list = w.slot.expanded.get('blocked.on');
      if (list?.kind === 'nodes') list.slots.push(child);
      else {
        const url = nodeListUrl(this.context(level, w.slot, 'blocked.on'), 'blocked.on');
        w.slot.expanded.set('blocked.on', {
          kind: 'nodes',
          slots: [child],
          hasMore: false,
          url,
          asOfEventId: w.slot.moment.eventId,
        });
      }
    }
  }

  private async expandChildren(level: Level): Promise<void> {
    const parents = level.slots.filter((s) => s.tree.has('children'));
    if (parents.length === 0) return;
    const totalLimit = level.budget.left + parents.length + 1;
    const lists = await this.nodes.childrenOf(
      level.graph.graphId,
      parents.map(at),
      CHILDREN_PAGE + 1,
      totalLimit,
      level.budget.maxBytes,
    );
    this.attachLists(level, parents, lists, totalLimit, 'children', CHILDREN_PAGE, (c) =>
      childrenUrl(c),
    );
  }

  private async expandDescendants(level: Level): Promise<void> {
    const roots = level.slots.filter((s) => s.tree.has('descendants'));
    if (roots.length === 0) return;
    const depth = level.descendantsMaxDepth;
    const totalLimit = level.budget.left + roots.length + 1;
    const lists = await this.nodes.descendantsOf(
      level.graph.graphId,
      roots.map((s) => ({
        sortKey: s.rec.sortKey,
        maxDepth: depth === null ? null : s.rec.depth + depth,
        seq: s.moment.seq,
      })),
      DESCENDANTS_PAGE + 1,
      totalLimit,
      level.budget.maxBytes,
    );
    this.attachLists(level, roots, lists, totalLimit, 'descendants', DESCENDANTS_PAGE, (c) =>
      descendantsUrl(c, DESCENDANTS_PAGE),
    );
  }

  private attachLists(
    level: Level,
    owners: NodeSlot[],
    { lists, cutFrom }: RecordLists,
    totalLimit: number,
    key: 'children' | 'descendants',
    pageSize: number,
    url: (c: ListContext) => string,
  ): void {
    if (lists.reduce((n, l) => n + l.length, 0) >= totalLimit)
      level.budget.take(level.budget.left + 1);
    owners.forEach((owner, i) => {
      const recs = lists[i] ?? [];
      const slots = recs
        .slice(0, pageSize)
        .map((rec) => nodeSlot(rec, owner.moment, owner.tree.get(key)));
      level.budget.take(slots.length);
      level.produced.push(...slots);
      owner.expanded.set(key, {
        kind: 'nodes',
        slots,
        // lists from the one a byte bound cut on were not read whole: their `url` goes on
        hasMore: recs.length > pageSize || (cutFrom !== null && i >= cutFrom),
        url: url(this.context(level, owner, key)),
        asOfEventId: owner.moment.eventId,
      });
    });
  }

  /** tasks, spawns, waits, messages: lists held whole, each counted against the budget. */
  private async expandItems(level: Level): Promise<void> {
    const { graphId } = level.graph;
    const owners = (key: NodeExpansion) => level.slots.filter((s) => s.tree.has(key));
    const limit = level.budget.left + 1;
    const attach = <T>(
      key: NodeExpansion,
      slots: NodeSlot[],
      lists: T[][],
      present: (slot: NodeSlot, item: T) => object,
    ) => {
      if (lists.reduce((n, l) => n + l.length, 0) >= limit) level.budget.take(limit);
      slots.forEach((slot, i) => {
        const items = (lists[i] ?? []).map((item) => present(slot, item));
        level.budget.take(items.length);
        const url = nodeListUrl(this.context(level, slot, key), key);
        slot.expanded.set(key, { kind: 'items', items, url, asOfEventId: slot.moment.eventId });
      });
    };
    const { maxBytes } = level.budget;
    // lists held whole: past the byte bound the request is refused (before the rest is read)
    const whole = <T>(l: { lists: T[][]; cut: boolean }): T[][] =>
      l.cut ? level.budget.tooManyBytes() : l.lists;
    const tasks = owners('tasks');
    const spawns = owners('spawns');
    const waits = owners('waits');
    const messages = owners('messages');
    await Promise.all([
      tasks.length &&
        this.items
          .tasksAt(graphId, tasks.map(at), maxBytes)
          .then((l) => attach('tasks', tasks, whole(l), (_, t) => presentTask(t))),
      spawns.length &&
        this.items
          .spawnsAt(graphId, spawns.map(at), limit, maxBytes)
          .then((l) => attach('spawns', spawns, whole(l), (_, s) => presentSpawn(graphId, s))),
      waits.length &&
        this.items
          .waitsAt(graphId, waits.map(at), limit)
          .then((l) => attach('waits', waits, l, (_, w) => presentWait(graphId, w))),
      messages.length &&
        this.items
          .messagesAt(graphId, messages.map(at), limit, maxBytes)
          .then((l) =>
            attach('messages', messages, whole(l), (s, m) => presentMessage(graphId, s.rec.no, m)),
          ),
    ]);
  }

  private context(level: Level, slot: NodeSlot, key: NodeExpansion): ListContext {
    return {
      graphId: level.graph.graphId,
      graphKey: level.graph.graphKey,
      nodeNo: slot.rec.no,
      eventId: slot.moment.eventId,
      nested: slot.tree.get(key) ?? new Map(),
      descendantsMaxDepth: level.descendantsMaxDepth,
    };
  }
}

const at = (s: NodeSlot): NodeAt => ({ nodeNo: s.rec.no, seq: s.moment.seq });
