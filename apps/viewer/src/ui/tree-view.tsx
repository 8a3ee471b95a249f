import { useEffect, useRef } from 'preact/hooks';
import type { NodeTree, TreeRow } from '../model/node-tree';
import { count, nodeName, tokens, usd } from '../model/format';
import { rowShowsProvider } from '../model/provider';
import { totalTokens, USAGE_SORTS, type UsageSort } from '../model/usage';
import { NodeFlags } from './node-flags';
import { ProviderBadge } from './provider-badge';
import { StateBadge } from './state-badge';
import { TaskProgress } from './task-progress';
import { revealRow, useViewport } from './use-viewport';
import { UserText } from './user-text';
import { plainText } from '../model/plain-text';

export const ROW_HEIGHT = 28;
/** Guide lines stop past this depth, so very deep trees stay readable. */
const MAX_GUIDES = 24;

interface Props {
  tree: NodeTree;
  rows: TreeRow[];
  activeId: string | null;
  selectedId: string | null;
  flashing: ReadonlySet<string>;
  marked: ReadonlySet<string>;
  onActivate(id: string): void;
  onOpen(id: string): void;
  onToggle(id: string, expand?: boolean): void;
  sortBy: UsageSort;
  onSort(by: UsageSort): void;
}

export const rowDomId = (id: string) => `row-${id}`;

/**
 * The tree of sessions and agents, one row per node in tree order. Only the rows in view are in
 * the page; the tree is one focus stop and arrow keys move the active row (aria-activedescendant).
 */
export function TreeView(p: Props) {
  const box = useRef<HTMLDivElement>(null);
  const vp = useViewport(box, p.rows.length, ROW_HEIGHT);
  const activeIndex = p.rows.findIndex((r) => r.node.id === p.activeId);

  useEffect(() => revealRow(box.current, activeIndex, ROW_HEIGHT), [activeIndex]);

  const move = (i: number) => {
    const r = p.rows[Math.max(0, Math.min(p.rows.length - 1, i))];
    if (r) p.onActivate(r.node.id);
  };

  const onKey = (e: KeyboardEvent) => {
    const row = p.rows[activeIndex];
    const page = Math.max(1, Math.floor(vp.height / ROW_HEIGHT) - 1);
    switch (e.key) {
      case 'ArrowDown':
        move(activeIndex + 1);
        break;
      case 'ArrowUp':
        move(activeIndex - 1);
        break;
      case 'PageDown':
        move(activeIndex + page);
        break;
      case 'PageUp':
        move(activeIndex - page);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(p.rows.length - 1);
        break;
      case 'ArrowRight':
        if (!row) return;
        if (row.hasChildren && !row.expanded) p.onToggle(row.node.id, true);
        else if (row.expanded) move(activeIndex + 1);
        break;
      case 'ArrowLeft':
        if (!row) return;
        if (row.expanded) p.onToggle(row.node.id, false);
        else if (row.node.parent_id) p.onActivate(row.node.parent_id);
        break;
      case 'Enter':
      case ' ':
        if (row) p.onOpen(row.node.id);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const nameOf = (id: string) => {
    const n = p.tree.byId.get(id);
    return n ? nodeName(n) : id;
  };

  const usage = p.tree.hasUsage;
  const providers = p.tree.severalProviders;
  return (
    <div class={usage ? 'tree-wrap' : 'tree-wrap no-usage'}>
      {usage && (
        <label class="tree-sort">
          Order siblings by{' '}
          <select
            value={p.sortBy}
            onChange={(e) => p.onSort((e.target as HTMLSelectElement).value as UsageSort)}
          >
            {USAGE_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <div class="tree-head" aria-hidden="true">
        <span>node</span>
        <span>state</span>
        <span>flags</span>
        <span>tasks</span>
        {usage && <span class="num">tokens</span>}
        {usage && <span class="num">cost</span>}
        <span>headline</span>
      </div>
      <div
        ref={box}
        class="tree"
        role="tree"
        aria-label="Sessions and agents"
        tabIndex={0}
        aria-activedescendant={
          activeIndex >= 0 ? rowDomId(p.rows[activeIndex]!.node.id) : undefined
        }
        onKeyDown={onKey}
        onFocus={() => activeIndex < 0 && move(0)}
      >
        <div class="tree-space" role="none" style={{ height: `${p.rows.length * ROW_HEIGHT}px` }}>
          {p.rows.slice(vp.first, vp.last).map((r, k) => {
            const i = vp.first + k;
            const n = r.node;
            const guides = p.tree.guides(n, MAX_GUIDES);
            const cls = [
              'row',
              n.id === p.activeId && 'active',
              n.id === p.selectedId && 'selected',
              p.flashing.has(n.id) && 'flash',
              p.marked.has(n.id) && 'marked',
              n.ended !== null && 'ended',
            ]
              .filter(Boolean)
              .join(' ');
            return (
              <div
                key={n.id}
                id={rowDomId(n.id)}
                class={cls}
                role="treeitem"
                aria-level={n.depth + 1}
                aria-expanded={r.hasChildren ? r.expanded : undefined}
                aria-selected={n.id === p.selectedId}
                style={{ top: `${i * ROW_HEIGHT}px` }}
                onClick={() => {
                  p.onActivate(n.id);
                  p.onOpen(n.id);
                }}
              >
                <span class="name">
                  {guides.map((on, g) => (
                    <span key={g} class={`guide${on ? ' on' : ''}`} aria-hidden="true" />
                  ))}
                  {n.depth > 0 && (
                    <span
                      class={`elbow${p.tree.isLastChild(n) ? ' last' : ''}`}
                      aria-hidden="true"
                    />
                  )}
                  <span
                    class={`toggle${r.hasChildren ? '' : ' leaf'}`}
                    aria-hidden="true"
                    onClick={(e) => {
                      if (!r.hasChildren) return;
                      e.stopPropagation();
                      p.onToggle(n.id);
                    }}
                  >
                    {r.hasChildren ? (r.expanded ? '▾' : '▸') : ''}
                  </span>
                  <span class="kind">{n.kind === 'session' ? 'session' : 'agent'}</span>
                  {providers &&
                    rowShowsProvider(n, n.parent_id ? p.tree.byId.get(n.parent_id) : undefined) && (
                      <ProviderBadge provider={n.provider} />
                    )}
                  <span class="label">
                    <UserText text={nodeName(n)} />
                  </span>
                </span>
                <StateBadge state={n.state} />
                <span class="flags">
                  <NodeFlags node={n} nameOf={nameOf} />
                </span>
                <TaskProgress t={n.task_counts} />
                {usage && (
                  <span
                    class="num tokens"
                    title={`subtree ${count(totalTokens(n.descendant_usage))} tokens; own ${count(totalTokens(n.usage))}`}
                  >
                    {tokens(totalTokens(n.descendant_usage))}
                  </span>
                )}
                {usage && (
                  <span class="num cost" title="estimated cost of the subtree (USD)">
                    {usd(n.descendant_usage?.cost_usd ?? 0)}
                  </span>
                )}
                <span class="headline">
                  <UserText text={n.headline && plainText(n.headline)} />
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
