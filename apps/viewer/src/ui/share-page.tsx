import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ShareApi } from '../api/share-api';
import { GraphHistoryError } from '@graph-history/client';
import type { NodeDetail } from '../api/types';
import { ShareStore } from '../live/share-store';
import { nodeName } from '../model/format';
import { buildLanes } from '../model/lanes';
import { readViewState, writeViewState } from '../model/url-state';
import { CountsBar } from './counts-bar';
import { LiveBadge } from './live-badge';
import { NodePanel } from './node-panel';
import { Scrubber } from './scrubber';
import { NotifyButton } from './notify-button';
import { SignOut } from './sign-out';
import { Swimlane } from './swimlane';
import { Timeline } from './timeline';
import { TreeView } from './tree-view';
import { sortedTree, type UsageSort } from '../model/usage';
import { useStore } from './use-store';
import { isolated, UserText } from './user-text';

/** Waits this long after the scrubber last moved before reading that moment. */
const SCRUB_DEBOUNCE_MS = 120;

/** The page of one share: tree, node panel, counts, events, swimlanes; live or at a moment. */
export function SharePage({ api, graphId }: { api: ShareApi; graphId: string }) {
  const initial = useMemo(readViewState, []);
  const store = useMemo(() => new ShareStore(api, graphId), [api, graphId]);
  useStore(store);
  const [selected, setSelected] = useState<string | null>(initial.node);
  const [active, setActive] = useState<string | null>(initial.node);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [eventId, setEventId] = useState<string | null>(null);
  const [scrubIndex, setScrubIndex] = useState<number | null>(null);
  const [panel, setPanel] = useState<{ node: NodeDetail | null; problem: string | null }>({
    node: null,
    problem: null,
  });
  const scrubTimer = useRef<number>();
  const treeBox = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void store.start(initial.asOf);
    return () => store.stop();
  }, [store]);

  const g = store.shown;
  const tree = store.tree;
  const momentId = store.live ? null : (g?.as_of_event_id ?? store.moment);

  useEffect(() => writeViewState({ asOf: store.moment, node: selected }), [store.moment, selected]);

  useEffect(() => {
    const onPop = () => {
      const v = readViewState();
      setSelected(v.node);
      if (v.asOf !== store.moment) void store.show(v.asOf);
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, [store]);

  // the selected node, read at the moment shown (again when the moment moves)
  const panelAt = g?.as_of_event_id ?? null;
  useEffect(() => {
    if (!selected || !panelAt) return;
    let gone = false;
    api.node(graphId, selected, panelAt).then(
      (node) => !gone && setPanel({ node, problem: null }),
      (err) =>
        !gone &&
        setPanel({
          node: null,
          problem:
            err instanceof GraphHistoryError && err.code === 'node_not_yet_created'
              ? 'This node does not exist yet at the moment shown.'
              : (err as Error).message,
        }),
    );
    return () => {
      gone = true;
    };
  }, [selected, panelAt]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !selected) return;
      setSelected(null);
      treeBox.current?.querySelector<HTMLElement>('[role=tree]')?.focus();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [selected]);

  const [sortBy, setSortBy] = useState<UsageSort>('tree');
  const shown = useMemo(() => sortedTree(tree, sortBy), [tree, tree.nodes, sortBy]);
  // the tree changes in place: its node list (a new array per change) says when
  const rows = useMemo(() => shown.visibleRows(collapsed), [shown, shown.nodes, collapsed]);
  const range = useMemo(() => {
    const first = store.events[0]?.created ?? g?.created ?? 0;
    const last = store.events[store.events.length - 1]?.created ?? first;
    return { start: first, end: Math.max(last, first + 1) };
  }, [store.events, g]);
  const lanes = useMemo(
    () => buildLanes(tree.nodes, store.events, range.start, range.end),
    [tree.nodes, store.events, range],
  );
  const marked = useMemo(() => {
    const e = store.events[store.position(eventId) ?? -1];
    return new Set(e ? e.changes.map((c) => c.node_id) : []);
  }, [eventId, store.events]);

  // names of nodes the moment shown does not hold (created later), from the events creating them
  const createdNames = useMemo(() => {
    const names = new Map<string, string>();
    for (const e of store.events)
      for (const c of e.changes)
        if (c.created) {
          const f = Object.fromEntries(Object.entries(c.fields).map(([k, v]) => [k, v.to]));
          names.set(
            c.node_id,
            nodeName({
              kind: 'agent',
              title: null,
              purpose: null,
              agent_type: null,
              provider_ref: c.node_id,
              ...f,
            }),
          );
        }
    return names;
  }, [store.events]);
  const nameOf = (id: string) => {
    const n = tree.byId.get(id);
    return n ? nodeName(n) : (createdNames.get(id) ?? id);
  };

  const open = (id: string) => {
    setActive(id);
    setSelected(id);
    // reveal it: expand every collapsed ancestor
    let p = tree.byId.get(id)?.parent_id;
    const next = new Set(collapsed);
    while (p) {
      next.delete(p);
      p = tree.byId.get(p)?.parent_id ?? null;
    }
    if (next.size !== collapsed.size) setCollapsed(next);
  };

  const toggle = (id: string, expand?: boolean) => {
    const next = new Set(collapsed);
    if (expand ?? next.has(id)) next.delete(id);
    else next.add(id);
    setCollapsed(next);
  };

  const scrub = (i: number) => {
    setScrubIndex(i);
    clearTimeout(scrubTimer.current);
    const id = store.events[i]?.id;
    if (!id) return;
    scrubTimer.current = window.setTimeout(() => void store.show(id), SCRUB_DEBOUNCE_MS);
  };
  const goLive = () => {
    clearTimeout(scrubTimer.current);
    setScrubIndex(null);
    void store.show(null);
  };
  // while dragging, the slider holds its own position until the moment is read
  const momentIndex = scrubIndex ?? (store.live ? null : store.position(momentId));

  const title = tree.nodes.find((n) => n.kind === 'session' && n.title)?.title ?? graphId;
  useEffect(() => {
    document.title = `${isolated(title)} · Graph History`;
  }, [title]);

  return (
    <div class="share">
      <header class="top">
        <a class="home" href="/graphs">
          Shares
        </a>
        <h1 title={title}>
          <UserText text={title} />
        </h1>
        <code class="gid">{graphId}</code>
        <LiveBadge
          status={store.status}
          pastAt={store.live ? null : (g?.last_event ?? null)}
          lastEvent={store.head?.last_event ?? null}
          onLive={goLive}
        />
        <span class="spacer" />
        <a class="json" href={`/api/v1/graphs/${graphId}${momentId ? `?as_of=${momentId}` : ''}`}>
          JSON
        </a>
        <NotifyButton />
        <SignOut />
      </header>
      {store.error && (
        <p class="error" role="alert">
          {store.error}
        </p>
      )}
      {g && <CountsBar graph={g} />}
      <Scrubber events={store.events} index={momentIndex} onScrub={scrub} onLive={goLive} />
      <main
        class={`grid${selected ? ' with-panel' : ''}${store.loading ? ' loading' : ''}`}
        aria-busy={store.loading}
      >
        <section class="tree-pane" ref={treeBox} aria-label="Tree">
          {g && tree.size === 0 && !store.loading ? (
            <p class="muted pad">No nodes at this moment.</p>
          ) : (
            <TreeView
              tree={shown}
              rows={rows}
              sortBy={sortBy}
              onSort={setSortBy}
              activeId={active}
              selectedId={selected}
              flashing={store.flashing}
              marked={marked}
              onActivate={setActive}
              onOpen={open}
              onToggle={toggle}
            />
          )}
        </section>
        {selected && (
          <NodePanel
            graphId={graphId}
            asOf={momentId}
            node={panel.node?.id === selected ? panel.node : null}
            problem={panel.node?.id === selected ? null : panel.problem}
            nameOf={nameOf}
            onSelect={open}
            onClose={() => setSelected(null)}
          />
        )}
        <Timeline
          events={store.events}
          momentIndex={momentIndex}
          selectedId={eventId}
          onSelect={setEventId}
          onShowMoment={(id) => {
            setScrubIndex(null);
            void store.show(id);
          }}
          onSelectNode={open}
          nameOf={nameOf}
        />
        <Swimlane
          rows={rows}
          lanes={lanes}
          start={range.start}
          end={range.end}
          moment={store.live ? null : (g?.last_event ?? null)}
          selectedId={selected}
          onPick={(id) => open(id)}
        />
      </main>
    </div>
  );
}
