import type { Event, RetentionGap } from '@graph-history/client';

/** Payload fields worth a glance, in the order they are shown. */
const SHOWN = [
  'state',
  'title',
  'agent_type',
  'purpose',
  'summary',
  'reason',
  'message',
  'text',
  'model',
  'input_tokens',
  'output_tokens',
];
const MAX_VALUE = 60;

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

function shortValue(value: unknown): string {
  const text = typeof value === 'string' ? value.split('\n')[0]!.trim() : JSON.stringify(value);
  const cut = text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
  return typeof value === 'string' ? JSON.stringify(cut) : cut;
}

/** What an event says, in brief: the notable payload fields and the sizes of its lists. */
function payloadSummary(payload: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const name of SHOWN) {
    if (payload[name] !== undefined && payload[name] !== null)
      parts.push(`${name}=${shortValue(payload[name])}`);
  }
  for (const [name, value] of Object.entries(payload)) {
    if (Array.isArray(value)) parts.push(`${name}=[${value.length}]`);
  }
  return parts.join(' ');
}

/**
 * One readable line for an event: time, type, the node it concerns, what it says, and each node
 * it changed with the changed fields (`+node` for a node it created).
 */
export function eventLine(event: Event, label: (nodeId: string) => string): string {
  const changed = event.changes.map((c) => {
    if (c.created) return `+${label(c.node_id)}`;
    const fields = Object.keys(c.fields).filter((f) => f !== 'last_event');
    return `${label(c.node_id)}${fields.length ? ` (${fields.join(', ')})` : ''}`;
  });
  const summary = payloadSummary(event.payload);
  return [
    time(event.created),
    event.type.padEnd(16),
    label(event.node_id),
    ...(summary ? [summary] : []),
    changed.length ? `→ ${changed.join('; ')}` : '→ no change',
  ].join('  ');
}

export function gapLine(gap: RetentionGap): string {
  return `-- events after ${gap.after} were trimmed before they could be read; resuming at ${gap.first_event_id} --`;
}
