import type { TaskStatus } from '@graph-history/domain';

export interface SimTask {
  id?: string;
  content: string;
  status: TaskStatus;
}

/** What the simulator remembers of a node so that it only ever emits valid events. */
export interface SimNode {
  ref: string;
  kind: 'session' | 'agent';
  parent: SimNode | null;
  depth: number;
  ended: boolean;
  liveChildren: number;
  tasks: SimTask[];
  taskIds: boolean;
  /** Refs of open explicit waits (wait.started); foreground-spawn waits are the server's. */
  waitsOn: Set<string>;
  attention: boolean;
}

/** The simulated graph's nodes, mirrored the way the server's rules see them. */
export class SimTree {
  readonly nodes = new Map<string, SimNode>();
  readonly live: SimNode[] = [];
  readonly ended: SimNode[] = [];

  add(ref: string, kind: SimNode['kind'], parent: SimNode | null, taskIds: boolean): SimNode {
    const node: SimNode = {
      ref,
      kind,
      parent,
      depth: parent ? parent.depth + 1 : 0,
      ended: false,
      liveChildren: 0,
      tasks: [],
      taskIds,
      waitsOn: new Set(),
      attention: false,
    };
    this.nodes.set(ref, node);
    this.live.push(node);
    if (parent) parent.liveChildren++;
    return node;
  }

  /** Ending closes the node's own waits and every wait on it, as the server does. */
  end(node: SimNode): void {
    node.ended = true;
    node.waitsOn.clear();
    node.attention = false;
    this.live.splice(this.live.indexOf(node), 1);
    this.ended.push(node);
    if (node.parent) node.parent.liveChildren--;
    for (const other of this.live) other.waitsOn.delete(node.ref);
  }

  liveWhere(test: (n: SimNode) => boolean): SimNode[] {
    return this.live.filter(test);
  }
}
