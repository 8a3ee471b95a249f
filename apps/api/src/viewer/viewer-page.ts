import { NODE_STATES, type PublicNodeFields } from '@graph-history/domain';
import type { PublicGraph } from '@graph-history/domain';
import { markup, SafeHtml } from '../html/html';
import { viewerDocument } from './viewer-shell';

/** The Node fields the viewer shows (a node as the nodes list renders it). */
export type ViewerNode = Pick<
  PublicNodeFields,
  | 'id'
  | 'provider_ref'
  | 'kind'
  | 'depth'
  | 'state'
  | 'attention'
  | 'title'
  | 'purpose'
  | 'headline'
  | 'agent_type'
  | 'task_counts'
  | 'blocked'
> & { stale: boolean };

export interface ViewerPageData {
  graph: PublicGraph;
  /** The first page of the graph's nodes in tree order, as of the graph's moment. */
  nodes: ViewerNode[];
  /** The JSON nodes list the tree shows. */
  nodesUrl: string;
  /** The JSON page after the last node shown, when more nodes follow. */
  moreUrl: string | null;
}

/** Indentation stops growing past this depth, so deep trees stay readable. */
const MAX_INDENT = 40;

function time(ms: number | null): SafeHtml {
  if (ms === null) return markup`<span class="muted">none</span>`;
  const iso = new Date(ms).toISOString();
  return markup`<time datetime="${iso}">${iso.replace('T', ' ').replace('Z', ' UTC')}</time>`;
}

const count = (n: number) => n.toLocaleString('en-US');

const withAsOf = (path: string, eventId: string | null) =>
  eventId === null ? path : `${path}?as_of=${encodeURIComponent(eventId)}`;

/** A node's name in the tree: a session's title, an agent's purpose, else its provider ref. */
const nodeName = (n: ViewerNode) =>
  (n.kind === 'session' ? n.title : (n.purpose ?? n.agent_type)) ?? n.provider_ref;

function flags(n: ViewerNode): SafeHtml {
  const b = n.blocked;
  const a = n.attention;
  return markup`${n.stale ? markup`<span class="flag stale">stale</span>` : ''}${
    b
      ? markup`<span class="flag blocked" title="${b.on_ids.join(' ')}">blocked on ${b.on_ids.length}${b.cycle ? ' (cycle)' : ''}</span>`
      : ''
  }${a ? markup`<span class="flag attention" title="${a.message ?? ''}">${a.reason}</span>` : ''}`;
}

function nodeRow(graph: PublicGraph, n: ViewerNode): SafeHtml {
  const indent = 0.5 + Math.min(Math.max(0, Math.trunc(n.depth)), MAX_INDENT) * 1.25;
  const t = n.task_counts;
  const link = withAsOf(`/api/v1/graphs/${graph.id}/nodes/${n.id}`, graph.as_of_event_id);
  return markup`<tr>
<td class="name" style="padding-left:${indent}rem"><span class="kind">${n.kind}</span> <a href="${link}">${nodeName(n)}</a> <code class="muted">${n.provider_ref}</code></td>
<td class="s-${n.state}">${n.state}</td><td>${flags(n)}</td><td>${n.agent_type ?? ''}</td>
<td class="num" title="${t.pending} pending, ${t.in_progress} in progress, ${t.completed} completed">${t.total ? `${t.completed}/${t.total}` : ''}${t.open ? ` (${t.open} open)` : ''}</td>
<td class="headline">${n.headline ?? ''}</td></tr>`;
}

function factsTable(rows: [string, SafeHtml | string][]): SafeHtml {
  return markup`<table class="facts">${rows.map(([k, v]) => markup`<tr><td>${k}</td><td>${v}</td></tr>`)}</table>`;
}

function countsTable(g: PublicGraph): SafeHtml {
  const c = g.counts;
  const rows: [string, number][] = [
    ['nodes', c.nodes],
    ['sessions', c.sessions],
    ['agents', c.agents],
    ['stale', c.stale],
    ['blocked', c.blocked],
    ...NODE_STATES.map((s): [string, number] => [s, c.by_state[s]]),
  ];
  return factsTable(rows.map(([k, v]) => [k, count(v)]));
}

function retentionTable(g: PublicGraph): SafeHtml {
  const r = g.retention;
  return factsTable([
    ['events held', count(r.event_count)],
    ['first event', markup`<code>${r.first_event_id ?? ''}</code> ${time(r.first_event_created)}`],
    ['last event', markup`<code>${r.last_event_id ?? ''}</code> ${time(r.last_event_created)}`],
  ]);
}

function tree(d: ViewerPageData): SafeHtml {
  if (d.nodes.length === 0) return markup`<p class="muted">No nodes at this moment.</p>`;
  const shown =
    d.moreUrl === null
      ? markup`${count(d.nodes.length)} nodes, in tree order.`
      : markup`The first ${count(d.nodes.length)} of ${count(d.graph.counts.nodes)} nodes, in tree order; <a href="${d.moreUrl}">the rest as JSON</a>.`;
  return markup`<p class="muted">${shown}</p>
<table class="tree"><thead><tr><th>node</th><th>state</th><th>flags</th><th>agent type</th><th>tasks</th><th>headline</th></tr></thead>
<tbody>${d.nodes.map((n) => nodeRow(d.graph, n))}</tbody></table>`;
}

/** The viewer page of a graph: counts, retention and node tree as of the graph's moment. */
export function viewerPage(d: ViewerPageData): string {
  const g = d.graph;
  const heading = d.nodes.find((n) => n.kind === 'session' && n.title)?.title ?? g.id;
  const api = `/api/v1/graphs/${g.id}`;
  return viewerDocument(
    heading,
    markup`<header><h1>${heading}</h1>
<p class="sub"><code>${g.id}</code> · ${g.source} share · created ${time(g.created)} · as of <code>${g.as_of_event_id ?? 'the start'}</code> (last event ${time(g.last_event)})</p>
<nav>JSON: <a href="${withAsOf(api, g.as_of_event_id)}">graph</a><a href="${d.nodesUrl}">nodes</a><a href="${withAsOf(`${api}/events`, g.as_of_event_id)}">events</a></nav>
<form method="get" action="/graphs/${g.id}"><label>as of <input name="as_of" placeholder="evt_… or Unix ms" size="22"></label> <button>Show</button></form> <a href="/graphs/${g.id}">now</a></header>
<h2>Counts</h2>${countsTable(g)}
<h2>Retention</h2>${retentionTable(g)}
<h2>Nodes</h2>${tree(d)}`,
  );
}
