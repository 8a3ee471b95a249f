import type { Graph, NodeState } from '../api/types';
import { count, dateTime, plural, stateLabel, tokens, usd } from '../model/format';
import { totalTokens } from '../model/usage';

/** Counts by state at the moment shown, and the span of history held. */
export function CountsBar({ graph: g }: { graph: Graph }) {
  const c = g.counts;
  const r = g.retention;
  return (
    <section class="counts" aria-label="Counts">
      <ul class="chips">
        <li>
          <strong>{count(c.nodes)}</strong> {plural(c.nodes, 'node')} ({count(c.sessions)}{' '}
          {plural(c.sessions, 'session')}, {count(c.agents)} {plural(c.agents, 'agent')})
        </li>
        {(Object.keys(c.by_state) as NodeState[]).map((s) => (
          <li key={s} class={`chip s-${s}${c.by_state[s] ? '' : ' zero'}`}>
            <span class="dot" aria-hidden="true" />
            <strong>{count(c.by_state[s])}</strong> {stateLabel(s)}
          </li>
        ))}
        <li class={`chip blocked${c.blocked ? '' : ' zero'}`}>
          <strong>{count(c.blocked)}</strong> blocked
        </li>
        <li class={`chip stale${c.stale ? '' : ' zero'}`}>
          <strong>{count(c.stale)}</strong> stale
        </li>
        {totalTokens(g.usage) > 0 && (
          <li
            class="chip usage"
            title="tokens of every node; the cost is an estimate from list prices"
          >
            <strong>{tokens(totalTokens(g.usage))}</strong> tokens · est.{' '}
            <strong>{usd(g.usage?.cost_usd ?? 0)}</strong>
          </li>
        )}
      </ul>
      <p class="retained">
        History held: {count(r.event_count)} events, {dateTime(r.first_event_created)} →{' '}
        {dateTime(r.last_event_created)}
      </p>
    </section>
  );
}
