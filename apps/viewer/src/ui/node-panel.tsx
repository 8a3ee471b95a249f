import { jsonLink } from '../api/json-links';
import { NODE_DETAIL_EXPANSIONS, type NodeDetail, type Usage } from '../api/types';
import { totalTokens } from '../model/usage';
import { clock, count, dateTime, duration, nodeName, plural, tokens, usd } from '../model/format';
import { NodeFlags } from './node-flags';
import { ProviderBadge } from './provider-badge';
import { StateBadge } from './state-badge';
import { UserText } from './user-text';
import { plainText } from '../model/plain-text';

interface Props {
  graphId: string;
  asOf: string | null;
  node: NodeDetail | null;
  /** Why no node is shown (e.g. it does not exist yet at this moment). */
  problem: string | null;
  nameOf(id: string): string;
  onSelect(id: string): void;
  onClose(): void;
}

function NodeLink({
  id,
  nameOf,
  onSelect,
}: {
  id: string;
  nameOf: (id: string) => string;
  onSelect: (id: string) => void;
}) {
  return (
    <button type="button" class="link" onClick={() => onSelect(id)}>
      <UserText text={nameOf(id)} />
    </button>
  );
}

/** Tokens of a usage and their estimated cost, e.g. `12.3k tokens (est. $0.42)`. */
function UsageLine({ usage }: { usage: Usage | null | undefined }) {
  return (
    <span title={usage ? `${count(totalTokens(usage))} tokens` : undefined}>
      {tokens(totalTokens(usage))} tokens (est. {usd(usage?.cost_usd ?? 0)})
    </span>
  );
}

/** Everything about one node at the moment shown: summary, tasks, spawns, waits, messages. */
export function NodePanel(p: Props) {
  const n = p.node;
  const json = (expand: string[] = []) =>
    n ? jsonLink(`/graphs/${p.graphId}/nodes/${n.id}`, { as_of: p.asOf, expand }) : '#';
  return (
    <section class="panel node-panel" aria-labelledby="node-panel-title">
      <header class="panel-head">
        <h2 id="node-panel-title">{n ? <UserText text={nodeName(n)} /> : 'Node'}</h2>
        <button type="button" class="close" onClick={p.onClose} aria-label="Close node panel (Esc)">
          ✕
        </button>
      </header>
      {p.problem && <p class="muted">{p.problem}</p>}
      {n && (
        <div class="panel-body">
          <p class="node-state">
            <StateBadge state={n.state} /> <NodeFlags node={n} nameOf={p.nameOf} />
          </p>
          <dl class="facts">
            <dt>kind</dt>
            <dd>
              {n.kind}
              {n.agent_type ? ' · ' : ''}
              <UserText text={n.agent_type} />
            </dd>
            <dt>provider</dt>
            <dd>
              <ProviderBadge provider={n.provider} />
            </dd>
            <dt>ref</dt>
            <dd>
              <code>
                <UserText text={n.provider_ref} />
              </code>
            </dd>
            <dt>started</dt>
            <dd>{dateTime(n.created)}</dd>
            <dt>last event</dt>
            <dd>{dateTime(n.last_event)}</dd>
            {n.ended !== null && (
              <>
                <dt>ended</dt>
                <dd>
                  {dateTime(n.ended)} (after {duration(n.ended - n.created)})
                </dd>
              </>
            )}
            <dt>below</dt>
            <dd>
              {n.child_count} {n.child_count === 1 ? 'child' : 'children'}, {n.descendant_count}{' '}
              {plural(n.descendant_count, 'descendant')}
              {n.background_agent_count ? `, ${n.background_agent_count} in background` : ''}
            </dd>
            <dt>tokens</dt>
            <dd>
              <UsageLine usage={n.usage} /> own; <UsageLine usage={n.descendant_usage} /> with
              everything below
            </dd>
            {n.blocked && (
              <>
                <dt>{n.blocked.cycle ? 'deadlock' : 'waiting on'}</dt>
                <dd>
                  {n.blocked.on_ids.map((id) => (
                    <NodeLink key={id} id={id} nameOf={p.nameOf} onSelect={p.onSelect} />
                  ))}{' '}
                  since {clock(n.blocked.starting)}
                </dd>
              </>
            )}
            {n.attention && (
              <>
                <dt>attention</dt>
                <dd>
                  <UserText text={n.attention.reason} />
                  {n.attention.message ? ': ' : ''}
                  <UserText text={n.attention.message} />
                </dd>
              </>
            )}
          </dl>
          {Object.keys(n.descendant_usage?.by_model ?? {}).length > 0 && (
            <>
              <h3>Usage by model (subtree)</h3>
              <table class="usage-table">
                <thead>
                  <tr>
                    <th scope="col">model</th>
                    <th scope="col">input</th>
                    <th scope="col">cache read</th>
                    <th scope="col">cache write</th>
                    <th scope="col">output</th>
                    <th scope="col">est. cost</th>
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(n.descendant_usage?.by_model ?? {}).map(([model, u]) => (
                    <tr key={model}>
                      <th scope="row">
                        <UserText text={model} />
                      </th>
                      <td>{count(u.input_tokens)}</td>
                      <td>{count(u.cache_read_tokens)}</td>
                      <td>{count(u.cache_creation_tokens)}</td>
                      <td>{count(u.output_tokens)}</td>
                      <td>{usd(u.cost_usd)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          {n.summary && (
            <>
              <h3>Summary</h3>
              <p class="summary">
                <UserText text={plainText(n.summary)} />
              </p>
            </>
          )}
          <h3>
            Tasks ({n.task_counts.completed}/{n.task_counts.total})
          </h3>
          {n.tasks?.data.length ? (
            <ul class="task-list">
              {n.tasks.data.map((t) => (
                <li key={t.id} class={`task t-${t.status}`}>
                  <span class="task-status">{t.status.replace('_', ' ')}</span>{' '}
                  <UserText text={t.content} />
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">No tasks.</p>
          )}
          <h3>Spawns</h3>
          {n.spawns?.data.length ? (
            <ul>
              {n.spawns.data.map((s) => (
                <li key={s.node_id}>
                  {clock(s.created)}{' '}
                  <NodeLink id={s.node_id} nameOf={p.nameOf} onSelect={p.onSelect} />
                  {s.background ? ' (background)' : ''}
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">None.</p>
          )}
          <h3>Waits</h3>
          {n.waits?.data.length ? (
            <ul>
              {n.waits.data.map((w, i) => (
                <li key={i}>
                  on <NodeLink id={w.on_id} nameOf={p.nameOf} onSelect={p.onSelect} />{' '}
                  {w.reason ? (
                    <>
                      (<UserText text={w.reason} />){' '}
                    </>
                  ) : (
                    ''
                  )}
                  {clock(w.started)} → {w.ended === null ? 'open' : clock(w.ended)}
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">None.</p>
          )}
          <h3>Messages</h3>
          {n.messages?.data.length ? (
            <ul class="messages">
              {n.messages.data.map((m) => (
                <li key={m.id}>
                  {clock(m.created)} {m.direction === 'sent' ? 'to ' : 'from '}
                  <NodeLink
                    id={m.direction === 'sent' ? m.to_id : m.from_id}
                    nameOf={p.nameOf}
                    onSelect={p.onSelect}
                  />
                  :{' '}
                  <span class="msg-text">
                    <UserText text={m.text} />
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">None.</p>
          )}
          <p class="json-links">
            JSON: <a href={json()}>node</a> ·{' '}
            <a href={json([...NODE_DETAIL_EXPANSIONS])}>with its items</a>
          </p>
        </div>
      )}
    </section>
  );
}
