import type { ChangeEntry } from '../event';
import { decodeId, encodeId, type IdPrefix } from '../ids';

/** The Node fields that hold one node id (`blocked.on_ids` holds several). */
const NODE_ID_FIELDS = ['id', 'parent_id', 'root_id', 'session_id', 'requested_by_id'];

type Fields = Record<string, unknown>;

/** `id` in the sealed form when it is an id of `prefix` (of either form); else `id` itself. */
function sealed(prefix: IdPrefix, id: unknown): unknown {
  if (typeof id !== 'string') return id;
  const d = decodeId(prefix, id);
  return d === null ? id : encodeId(prefix, d.graphId, d.n);
}

/** A Node's (or a changed field's) values with every node id sealed, in place. */
function sealNodeFields(node: Fields, fields: readonly string[]): void {
  for (const f of fields) if (typeof node[f] === 'string') node[f] = sealed('node', node[f]);
  const blocked = node.blocked as { on_ids?: unknown } | null | undefined;
  if (blocked && Array.isArray(blocked.on_ids))
    blocked.on_ids = blocked.on_ids.map((id) => sealed('node', id));
}

/** Change entries with every node id sealed (node_id, and id fields' from/to), in place. */
export function sealChangeIds(changes: ChangeEntry[]): ChangeEntry[] {
  for (const c of changes) {
    c.node_id = sealed('node', c.node_id) as string;
    for (const [field, change] of Object.entries(c.fields)) {
      const pair = change as unknown as Fields;
      for (const side of ['from', 'to'])
        if (pair[side] !== null && pair[side] !== undefined) {
          const holder: Fields = { [field]: pair[side] };
          sealNodeFields(holder, NODE_ID_FIELDS.includes(field) ? [field] : []);
          pair[side] = holder[field];
        }
    }
  }
  return changes;
}

/**
 * A stored Node's or Event's JSON (public_json) with the ids of the older, readable form sealed
 * (see ids.ts), byte for byte the same otherwise: the text was JSON.stringify's, so parsing and
 * stringifying it again keeps every key's order. Null when it holds no id to seal.
 */
export function sealStoredJsonIds(kind: 'node' | 'event', json: string): string | null {
  const value = JSON.parse(json) as Fields;
  if (kind === 'node') sealNodeFields(value, NODE_ID_FIELDS);
  else {
    value.id = sealed('evt', value.id);
    value.node_id = sealed('node', value.node_id);
    if (Array.isArray(value.changes)) sealChangeIds(value.changes as ChangeEntry[]);
  }
  const out = JSON.stringify(value);
  return out === json ? null : out;
}
