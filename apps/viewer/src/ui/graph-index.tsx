import { useEffect, useState } from 'preact/hooks';
import type { ShareApi } from '../api/share-api';
import type { Graph, NodeState } from '../api/types';
import { count, dateTime, stateLabel } from '../model/format';
import { SignOut } from './sign-out';

/** The account's shares, most recently active first. */
export function GraphIndex({ api }: { api: ShareApi }) {
  const [graphs, setGraphs] = useState<Graph[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.listGraphs().then(setGraphs, (e: Error) => setError(e.message));
  }, [api]);
  useEffect(() => {
    document.title = 'Shares · Graph History';
  }, []);
  return (
    <div class="index">
      <header class="top">
        <h1>Your shares</h1>
        <span class="spacer" />
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
          <table class="graphs">
            <thead>
              <tr>
                <th scope="col">share</th>
                <th scope="col">last event</th>
                <th scope="col">nodes</th>
                <th scope="col">by state</th>
                <th scope="col">events held</th>
              </tr>
            </thead>
            <tbody>
              {graphs.map((g) => (
                <tr key={g.id}>
                  <td>
                    <a href={`/graphs/${g.id}`}>{g.id}</a>
                  </td>
                  <td>{dateTime(g.last_event)}</td>
                  <td class="num">{count(g.counts.nodes)}</td>
                  <td>
                    {(Object.keys(g.counts.by_state) as NodeState[])
                      .filter((s) => g.counts.by_state[s])
                      .map((s) => (
                        <span key={s} class={`state s-${s}`}>
                          <span class="dot" aria-hidden="true" />
                          {g.counts.by_state[s]} {stateLabel(s)}{' '}
                        </span>
                      ))}
                  </td>
                  <td class="num">{count(g.retention.event_count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </main>
    </div>
  );
}
