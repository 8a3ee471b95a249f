type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * What read-api.md and decisions.md say about how the fields of a graph's nodes relate, checked
 * over a whole nodes list read at one moment. Returns the broken rules (empty when all hold).
 */
export function nodeInvariantViolations(nodes: Node[]): string[] {
  const byId = new Map(nodes.map((n) => [n.id as string, n]));
  const children = new Map<string, Node[]>();
  for (const n of nodes)
    if (n.parent_id) children.set(n.parent_id, [...(children.get(n.parent_id) ?? []), n]);
  const subtree = (n: Node): Node[] =>
    (children.get(n.id) ?? []).flatMap((c) => [c, ...subtree(c)]);
  const broken: string[] = [];
  const check = (n: Node, ok: boolean, rule: string) =>
    ok || broken.push(`${n.id} (${n.provider_ref}): ${rule}`);

  for (const n of nodes) {
    const parent = n.parent_id ? byId.get(n.parent_id) : undefined;
    check(n, n.parent_id === null || parent !== undefined, 'parent_id names a node of the graph');
    check(
      n,
      n.depth === (parent ? parent.depth + 1 : 0),
      'depth is 0 for a root, else the parent depth + 1',
    );
    check(n, n.root_id === (parent ? parent.root_id : n.id), 'root_id is the root of the tree');
    check(
      n,
      n.session_id === (n.kind === 'session' ? n.id : parent?.session_id),
      'session_id is the session the node belongs to',
    );
    check(
      n,
      (n.kind === 'session') === (n.requested_by_id === null),
      'requested_by_id is null exactly for sessions',
    );
    if (n.kind === 'agent') {
      const session = byId.get(n.session_id);
      check(
        n,
        session !== undefined && n.provider_ref.startsWith(`${session.provider_ref}/`),
        "agent provider_ref extends its session's with a / suffix",
      );
    }
    const below = subtree(n);
    check(
      n,
      n.child_count === (children.get(n.id) ?? []).length,
      'child_count counts the children',
    );
    check(n, n.descendant_count === below.length, 'descendant_count counts the subtree');
    const bg = below.filter(
      (d) => d.kind === 'agent' && d.background === true && d.ended === null,
    ).length;
    check(
      n,
      n.background_agent_count === bg,
      'background_agent_count counts unfinished background agents below',
    );
    const t = n.task_counts;
    check(
      n,
      t.open === t.pending + t.in_progress && t.total === t.pending + t.in_progress + t.completed,
      'task_counts add up',
    );
    check(
      n,
      n.headline === null || n.headline.length <= 120,
      'headline has at most 120 characters',
    );
    check(n, !n.stale || n.state === 'working', 'stale only for working nodes');
    check(
      n,
      n.ended === null || ['completed', 'failed', 'canceled'].includes(n.state),
      'an ended node has a final state',
    );
    check(
      n,
      n.last_event >= n.created && (n.ended === null || n.ended >= n.created),
      'times are ordered',
    );
    if (n.blocked !== null) {
      check(n, n.ended === null, 'only unfinished nodes are blocked');
      check(n, n.blocked.on_ids.length > 0, 'blocked.on_ids is not empty');
      check(
        n,
        n.blocked.on_ids.every((id: string) => byId.get(id)?.ended === null),
        'blocked.on_ids are unfinished nodes',
      );
      check(n, n.blocked.node_count >= n.blocked.on_ids.length, 'blocked.node_count covers on_ids');
    }
  }
  return broken;
}

/** GraphCounts as read-api.md defines them, computed from the nodes. */
export function countsOf(nodes: Node[]): Record<string, unknown> {
  const states = ['working', 'input_required', 'idle', 'completed', 'failed', 'canceled'];
  return {
    nodes: nodes.length,
    sessions: nodes.filter((n) => n.kind === 'session').length,
    agents: nodes.filter((n) => n.kind === 'agent').length,
    stale: nodes.filter((n) => n.stale).length,
    blocked: nodes.filter((n) => n.blocked !== null).length,
    by_state: Object.fromEntries(
      states.map((st) => [st, nodes.filter((n) => n.state === st).length]),
    ),
  };
}
