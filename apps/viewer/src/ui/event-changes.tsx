import type { GraphEvent } from '../api/types';
import { clock, valueText } from '../model/format';
import { UserText } from './user-text';

interface Props {
  event: GraphEvent;
  nameOf(id: string): string;
  onSelectNode(id: string): void;
  onShowMoment(): void;
}

/** Which nodes an event changed, and each field from → to. */
export function EventChanges({ event: e, nameOf, onSelectNode, onShowMoment }: Props) {
  return (
    <div class="event-changes" aria-live="polite">
      <h3>
        {e.type} at {clock(e.created)}
      </h3>
      <p>
        <button type="button" onClick={onShowMoment}>
          Show the share as of this event
        </button>
      </p>
      {e.changes.length === 0 && <p class="muted">It changed no node.</p>}
      {e.changes.map((c) => (
        <div key={c.node_id} class="change">
          <p>
            <button type="button" class="link" onClick={() => onSelectNode(c.node_id)}>
              <UserText text={nameOf(c.node_id)} />
            </button>
            {c.created ? ' (created)' : ''}
          </p>
          <table>
            <thead class="sr-only">
              <tr>
                <th scope="col">field</th>
                <th scope="col">from</th>
                <th scope="col">to</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(c.fields).map(([k, v]) => (
                <tr key={k}>
                  <th scope="row">{k}</th>
                  <td class="from">
                    <UserText text={valueText(v.from)} />
                  </td>
                  <td class="arrow" aria-label="to">
                    →
                  </td>
                  <td class="to">
                    <UserText text={valueText(v.to)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}
