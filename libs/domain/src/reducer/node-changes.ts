import { FieldChange } from '../event';
import { PublicNode } from '../public/node.schema';
import { jsonEqual } from './json-equal';

type Fields = Record<string, FieldChange>;

/** Names of a presented Node that are not fields of the node's changes. */
const NOT_CHANGES = new Set(['id', 'object', 'as_of_event_id', 'graph_id', 'stale']);

/** Public fields (but `id`) whose values differ, with `from`/`to`. */
export function changedFields(before: PublicNode, after: PublicNode): Fields {
  const fields: Fields = {};
  const b = before as unknown as Record<string, unknown>;
  const a = after as unknown as Record<string, unknown>;
  for (const name in a) {
    const from = b[name];
    const to = a[name];
    // most fields are the same value: the cheapest test first
    if (from === to || NOT_CHANGES.has(name) || jsonEqual(from, to)) continue;
    fields[name] = { from, to };
  }
  return fields;
}

/** A node the event created: every public field (but `id`) that is not null, from null. */
export function createdFields(after: PublicNode): Fields {
  const fields: Fields = {};
  const a = after as unknown as Record<string, unknown>;
  for (const name in a) {
    const to = a[name];
    if (to !== null && !NOT_CHANGES.has(name)) fields[name] = { from: null, to };
  }
  return fields;
}
