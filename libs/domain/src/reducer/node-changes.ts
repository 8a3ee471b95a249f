import { FieldChange } from '../event';
import { PublicNodeBody } from '../public-node';
import { jsonEqual } from './json-equal';

type Fields = Record<string, FieldChange>;

/** Public fields (but `id`) whose values differ, with `from`/`to`. */
export function changedFields(before: PublicNodeBody, after: PublicNodeBody): Fields {
  const fields: Fields = {};
  const b = before as unknown as Record<string, unknown>;
  for (const [name, to] of Object.entries(after)) {
    if (name !== 'id' && !jsonEqual(b[name], to)) fields[name] = { from: b[name], to };
  }
  return fields;
}

/** A node the event created: every public field (but `id`) that is not null, from null. */
export function createdFields(after: PublicNodeBody): Fields {
  const fields: Fields = {};
  for (const [name, to] of Object.entries(after)) {
    if (name !== 'id' && to !== null) fields[name] = { from: null, to };
  }
  return fields;
}
