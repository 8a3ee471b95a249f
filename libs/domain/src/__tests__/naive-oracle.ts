import { emptyCounts, StoredGraphCounts } from '../graph-counts';
import { BlockedRecord, NodeKind, NodeState } from '../node';
import { TokenCounts } from '../usage/usage';
import { WatchEvent } from '../watch-event';

/** Tokens one `usage.reported` event added, as sent. */
export interface Reported {
  model: string;
  tokens: TokenCounts;
}

interface OracleNode {
  no: number;
  ref: string;
  kind: NodeKind;
  parent: number | null;
  background: boolean | null;
  ended: boolean;
  state: NodeState;
  openTasks: number;
  reported: Reported[];
}

export interface ExpectedNodeCounts {
  childCount: number;
  descendantCount: number;
  backgroundAgentCount: number;
  blocked: BlockedRecord | null;
}

/**
 * A deliberately simple model of a graph: plain lists, open waits as a set of pairs, and every
 * derived value computed from scratch by scanning. Only blocked spells need history.
 */
export class NaiveOracle {
  readonly nodes: OracleNode[] = [];
  private readonly waits = new Set<string>();
  private readonly spellStart = new Map<number, number>();

  /** Feeds one event the reducer accepted, with its stored `created`. */
  apply(ev: WatchEvent, created: number): void {
    const self = this.byRef(ev.node);
    switch (ev.type) {
      case 'session.started':
        this.add(
          ev.node,
          'session',
          ev.payload.parent === undefined ? null : this.byRef(ev.payload.parent)!.no,
          null,
        );
        break;
      case 'agent.spawned': {
        const background = ev.payload.background ?? false;
        const child = this.add(ev.node, 'agent', this.byRef(ev.payload.parent)!.no, background);
        if (!background) this.waits.add(`${child.parent}>${child.no}`);
        break;
      }
      case 'status':
        self!.state = ev.payload.state;
        break;
      case 'tasks.updated':
        self!.openTasks = ev.payload.tasks.filter((t) => t.status !== 'completed').length;
        break;
      case 'wait.started':
        for (const ref of ev.payload.on) {
          const on = this.byRef(ref)!;
          if (!on.ended) this.waits.add(`${self!.no}>${on.no}`);
        }
        break;
      case 'wait.ended':
        for (const key of [...this.waits]) {
          const [from, to] = key.split('>').map(Number);
          const listed = ev.payload.on?.some((ref) => this.byRef(ref)!.no === to) ?? true;
          if (from === self!.no && listed) this.waits.delete(key);
        }
        break;
      case 'usage.reported':
        self!.reported.push({
          model: ev.payload.model,
          tokens: {
            input_tokens: ev.payload.input_tokens,
            cache_read_tokens: ev.payload.cache_read_tokens ?? 0,
            cache_creation_tokens: ev.payload.cache_creation_tokens ?? 0,
            output_tokens: ev.payload.output_tokens,
          },
        });
        break;
      case 'ended':
        self!.ended = true;
        self!.state = ev.payload.state;
        for (const key of [...this.waits]) {
          const [from, to] = key.split('>').map(Number);
          if (from === self!.no || to === self!.no) this.waits.delete(key);
        }
        break;
      default:
        break;
    }
    for (const node of this.nodes) {
      const blocked = this.isBlocked(node.no);
      if (!blocked) this.spellStart.delete(node.no);
      else if (!this.spellStart.has(node.no)) this.spellStart.set(node.no, created);
    }
  }

  byRef(ref: string): OracleNode | undefined {
    return this.nodes.find((n) => n.ref === ref);
  }

  node(no: number): OracleNode {
    return this.nodes[no - 1]!;
  }

  expectedCounts(): StoredGraphCounts {
    const counts = emptyCounts();
    for (const node of this.nodes) {
      counts.nodes++;
      if (node.kind === 'session') counts.sessions++;
      else counts.agents++;
      counts.by_state[node.state]++;
      if (this.isBlocked(node.no)) counts.blocked++;
    }
    return counts;
  }

  expectedNode(no: number): ExpectedNodeCounts {
    const descendants = this.nodes.filter((n) => this.isDescendant(n.no, no));
    return {
      childCount: this.nodes.filter((n) => n.parent === no).length,
      descendantCount: descendants.length,
      backgroundAgentCount: descendants.filter(
        (n) => n.kind === 'agent' && n.background && !n.ended,
      ).length,
      blocked: this.blocked(no),
    };
  }

  /** Every report of the node itself, of its subtree (itself included), of the whole graph. */
  reports(no: number | 'graph', subtree: boolean): Reported[] {
    return this.nodes
      .filter((n) => no === 'graph' || n.no === no || (subtree && this.isDescendant(n.no, no)))
      .flatMap((n) => n.reported);
  }

  /** Node numbers in depth-first pre-order, children oldest first. */
  preOrder(): number[] {
    const out: number[] = [];
    const visit = (no: number) => {
      out.push(no);
      for (const child of this.nodes.filter((n) => n.parent === no)) visit(child.no);
    };
    for (const root of this.nodes.filter((n) => n.parent === null)) visit(root.no);
    return out;
  }

  isDescendant(no: number, ancestor: number): boolean {
    for (let p = this.node(no).parent; p !== null; p = this.node(p).parent)
      if (p === ancestor) return true;
    return false;
  }

  private add(
    ref: string,
    kind: NodeKind,
    parent: number | null,
    background: boolean | null,
  ): OracleNode {
    const node: OracleNode = {
      no: this.nodes.length + 1,
      ref,
      kind,
      parent,
      background,
      ended: false,
      state: 'working',
      openTasks: 0,
      reported: [],
    };
    this.nodes.push(node);
    return node;
  }

  private targets(no: number): number[] {
    return [...this.waits]
      .map((k) => k.split('>').map(Number))
      .filter(([from]) => from === no)
      .map(([, to]) => to!);
  }

  private onNos(no: number): number[] {
    return this.targets(no)
      .filter((to) => !this.node(to).ended)
      .sort((a, b) => a - b);
  }

  private isBlocked(no: number): boolean {
    return !this.node(no).ended && this.onNos(no).length > 0;
  }

  private blocked(no: number): BlockedRecord | null {
    if (!this.isBlocked(no)) return null;
    const reached = new Set<number>();
    const queue = this.targets(no);
    while (queue.length) {
      const next = queue.shift()!;
      if (reached.has(next)) continue;
      reached.add(next);
      queue.push(...this.targets(next));
    }
    const cycle = reached.has(no);
    reached.delete(no);
    let openTasks = 0;
    for (const r of reached) openTasks += this.node(r).openTasks;
    return {
      onNos: this.onNos(no),
      starting: this.spellStart.get(no)!,
      nodeCount: reached.size,
      openTasks,
      cycle,
    };
  }
}
