import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ShareApi } from '../api/share-api';
import type { Graph, Node } from '../api/types';
import { count, quietSince, when } from '../model/format';
import { needsYou, type ShareSummary } from '../model/share-summary';
import { NotifyButton } from './notify-button';
import { SignOut } from './sign-out';
import { UserText } from './user-text';

/** Root sessions read at once while the index fills in titles. */
const SESSION_READS_AT_ONCE = 4;

/**
 * The account's shares, most recently active first: each one's title and provider (its first
 * session), when it was last active, and what needs a person; a box filters them.
 */
export function GraphIndex({ api }: { api: ShareApi }) {
  const [graphs, setGraphs] = useState<Graph[] | null>(null);
  const [sessions, setSessions] = useState<ReadonlyMap<string, Node | null>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [onlyNeedsYou, setOnlyNeedsYou] = useState(false);
  useEffect(() => {
    const stop = new AbortController();
    api.listGraphs().then(
      async (gs) => {
        setGraphs(gs);
        const queue = gs.slice();
        const worker = async () => {
          for (let g = queue.shift(); g && !stop.signal.aborted; g = queue.shift()) {
            const session = await api.rootSession(g.id).catch(() => null);
            const id = g.id;
            setSessions((m) => new Map(m).set(id, session));
          }
        };
        await Promise.all(Array.from({ length: SESSION_READS_AT_ONCE }, worker));
      },
      (e: Error) => setError(e.message),
    );
    return () => stop.abort();
  }, [api]);
  useEffect(() => {
    document.title = 'Shares · Graph History';
  }, []);
  const rows: ShareSummary[] = useMemo(
    () => (graphs ?? []).map((g) => ({ graph: g, session: sessions.get(g.id) })),
    [graphs, sessions],
  );
  const words = filter.trim().toLowerCase();
  const shown = rows.filter(
    (r) =>
      (!onlyNeedsYou || needsYou(r.graph).length > 0) &&
      (!words ||
        [r.graph.id, r.session?.title, r.session?.provider, r.session?.provider_ref]
          .filter(Boolean)
          .some((t) => t!.toLowerCase().includes(words))),
  );
  return (
    <div class="index">
      <header class="top">
        <h1>Your shares</h1>
        <span class="spacer" />
        <NotifyButton />
        <SignOut />
      </header>
      <main class="pad">
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {graphs === null && !error && <p class="muted">Loading…</p>}
        {graphs?.length === 0 && (
          <p>
            No shares yet. Run <code>graph-history watch</code> beside your agents to start one.
          </p>
        )}
        {graphs && graphs.length > 0 && (
          <>
            <div class="index-filters">
              <label>
                Filter{' '}
                <input
                  type="search"
                  value={filter}
                  placeholder="title, provider or id"
                  onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
                />
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={onlyNeedsYou}
                  onChange={(e) => setOnlyNeedsYou((e.target as HTMLInputElement).checked)}
                />{' '}
                only shares that need attention
              </label>
              <span class="muted" role="status">
                {count(shown.length)} of {count(rows.length)}
              </span>
            </div>
            <table class="graphs">
              <thead>
                <tr>
                  <th scope="col">share</th>
                  <th scope="col">provider</th>
                  <th scope="col">last active</th>
                  <th scope="col">needs attention</th>
                  <th scope="col">nodes</th>
                  <th scope="col">events held</th>
                </tr>
              </thead>
              <tbody>
                {shown.map(({ graph: g, session }) => (
                  <tr key={g.id}>
                    <td>
                      <a href={`/graphs/${g.id}`}>
                        {session?.title ? <UserText text={session.title} /> : g.id}
                      </a>
                      {session?.title && <span class="gid"> {g.id}</span>}
                    </td>
                    <td>
                      <UserText text={session?.provider} />
                    </td>
                    <td>
                      {g.last_event === null
                        ? '—'
                        : quietSince(g.last_event) === null
                          ? 'now'
                          : when(g.last_event)}
                    </td>
                    <td>
                      {needsYou(g).map((n) => (
                        <span key={n.label} class={`need s-${n.state}`}>
                          {count(n.count)} {n.label}{' '}
                        </span>
                      ))}
                    </td>
                    <td class="num">{count(g.counts.nodes)}</td>
                    <td class="num">{count(g.retention.event_count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </main>
    </div>
  );
}
