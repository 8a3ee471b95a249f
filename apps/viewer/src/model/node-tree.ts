import type { GraphEvent, Node } from '../api/types';

/** Fields a node has before any event sets them (a created change lists only non-null fields). */
const EMPTY_NODE: Partial<Node> = {
  parent_id: null,
  stale: false,
  attention: null,
  title: null,
  headline: null,
  purpose: null,
  agent_type: null,
  background: null,
  ended: null,
  summary: null,
  cwd: null,
  link_method: null,
  spawn_call_id: null,
  requested_by_id: null,
  child_count: 0,
  descendant_count: 0,
  background_agent_count: 0,
  task_counts: { total: 0, pending: 0, in_progress: 0, completed: 0, open: 0 },
  blocked: null,
  usage: null,
  descendant_usage: null,
};

/** One row of the tree as shown: the node and where it sits. */
export interface TreeRow {
  node: Node;
  hasChildren: boolean;
  expanded: boolean;
}

/**
 * The nodes of a graph at one moment, in tree order (depth-first, children oldest first), kept up
 * to date by applying events' `changes`.
 */
export class NodeTree {
  readonly byId = new Map<string, Node>();
  private readonly children = new Map<string | null, string[]>();
  private order: Node[] = [];

  constructor(treeOrder: Node[] = []) {
    for (const n of treeOrder) this.add(n);
    this.order = treeOrder.slice();
  }

  get size(): number {
    return this.order.length;
  }

  get nodes(): readonly Node[] {
    return this.order;
  }

  /** Whether nodes came from more than one provider (agents of several kinds side by side). */
  get severalProviders(): boolean {
    const first = this.order[0]?.provider;
    return this.order.some((n) => n.provider !== first);
  }

  /** Whether any node reported tokens: a root's subtree then has usage. */
  get hasUsage(): boolean {
    for (const id of this.children.get(null) ?? [])
      if (this.byId.get(id)?.descendant_usage) return true;
    return false;
  }

  private add(n: Node): void {
    this.byId.set(n.id, n);
    const siblings = this.children.get(n.parent_id);
    if (siblings) siblings.push(n.id);
    else this.children.set(n.parent_id, [n.id]);
  }

  childIds(id: string | null): readonly string[] {
    return this.children.get(id) ?? [];
  }

  /** Whether `id` is the last of its siblings (guide lines stop there). */
  isLastChild(n: Node): boolean {
    const s = this.childIds(n.parent_id);
    return s[s.length - 1] === n.id;
  }

  /**
   * Applies the events' changes (oldest first); returns the ids of the nodes they changed. A node
   * a change creates becomes its parent's newest child.
   */
  apply(events: readonly GraphEvent[]): Set<string> {
    const changed = new Set<string>();
    let created = false;
    for (const e of events)
      for (const c of e.changes) {
        changed.add(c.node_id);
        const to = Object.fromEntries(Object.entries(c.fields).map(([k, v]) => [k, v.to]));
        const old = this.byId.get(c.node_id);
        if (old) {
          this.byId.set(c.node_id, { ...old, ...to });
        } else if (c.created) {
          this.add({ ...EMPTY_NODE, id: c.node_id, ...to } as unknown as Node);
          created = true;
        }
      }
    this.order = created ? this.walk() : this.order.map((n) => this.byId.get(n.id)!);
    return changed;
  }

  private walk(): Node[] {
    const out: Node[] = [];
    const stack = [...this.childIds(null)].reverse();
    while (stack.length) {
      const id = stack.pop()!;
      out.push(this.byId.get(id)!);
      const kids = this.childIds(id);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
    return out;
  }

  /** The rows shown: every node whose ancestors are all expanded. */
  visibleRows(collapsed: ReadonlySet<string>): TreeRow[] {
    const rows: TreeRow[] = [];
    let skipBelowDepth = Infinity;
    for (const node of this.order) {
      if (node.depth > skipBelowDepth) continue;
      skipBelowDepth = Infinity;
      const hasChildren = this.childIds(node.id).length > 0;
      const expanded = hasChildren && !collapsed.has(node.id);
      rows.push({ node, hasChildren, expanded });
      if (hasChildren && !expanded) skipBelowDepth = node.depth;
    }
    return rows;
  }

  /** For each level above the node (up to `max`), whether a guide line continues through it. */
  guides(n: Node, max: number): boolean[] {
    const out: boolean[] = [];
    let p = n.parent_id ? this.byId.get(n.parent_id) : undefined;
    while (p && out.length < max) {
      out.unshift(!this.isLastChild(p));
      p = p.parent_id ? this.byId.get(p.parent_id) : undefined;
    }
    return out;
  }
}
