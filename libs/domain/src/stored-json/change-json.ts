import type { ChangeEntry } from '../event';
import { NODE_USAGE_FIELDS } from '../public/node.schema';
import type { Usage } from '../usage/usage';
import { usageJson } from '../usage/usage-json';
import { blockedJson } from './blocked-json';
import { encodedField, type EncodedNode } from './encoded-node';
import { jsonOf } from './json-of';
import { changeInJsonbOrder } from './event-json';
import { inJsonbOrder } from './jsonb-order';

const keys = new Map<string, string>();
const keyOf = (field: string): string => {
  let key = keys.get(field);
  if (key === undefined) keys.set(field, (key = `${JSON.stringify(field)}:`));
  return key;
};

/**
 * JSON of `value`, the field `field` of a node or null, with objects in jsonb's key order (as
 * storedEventJson writes change values): the node's encoded JSON when that is it already (a
 * string's JSON is worth taking, a number's or boolean's is as cheap to write again).
 */
function valueJson(value: unknown, node: EncodedNode | null, field: string): string | undefined {
  if (value === null || typeof value !== 'object')
    return typeof value === 'string' && holds(node, field, value)
      ? encodedField(node, field)
      : jsonOf(value);
  const blocked = field === 'blocked' ? blockedJson(value) : undefined;
  if (blocked !== undefined) return blocked;
  // a usage is built in jsonb's key order
  if (NODE_USAGE_FIELDS.includes(field))
    return holds(node, field, value) ? encodedField(node, field) : usageJson(value as Usage);
  const ordered = inJsonbOrder(value);
  return ordered === value && holds(node, field, value)
    ? encodedField(node, field)
    : jsonOf(ordered);
}

/** Whether `value` is the node's field `field` itself, so its encoded JSON is the value's. */
const holds = (node: EncodedNode | null, field: string, value: unknown): node is EncodedNode =>
  node !== null && (node.node as unknown as Record<string, unknown>)[field] === value;

/** `{"from":…,"to":…}`, leaving out what JSON.stringify leaves out. */
function pairJson(from: string | undefined, to: string | undefined): string {
  if (from === undefined) return to === undefined ? '{}' : `{"to":${to}}`;
  return to === undefined ? `{"from":${from}}` : `{"from":${from},"to":${to}}`;
}

/**
 * The JSON storedEventJson writes for change `c` of the node whose presentation moved from
 * `before` (null: unknown, or created) to `after`: `JSON.stringify` of the change with its object
 * values in jsonb's key order, the values' JSON taken from the encoded nodes where it can be.
 */
export function changeJson(c: ChangeEntry, before: EncodedNode | null, after: EncodedNode): string {
  // a created node's (or a node first met) values are all new: one stringify of them is cheaper
  if (before === null) return JSON.stringify(changeInJsonbOrder(c));
  let fields = '';
  for (const f in c.fields) {
    const { from, to } = c.fields[f]!;
    const pair = pairJson(valueJson(from, before, f), valueJson(to, after, f));
    fields += (fields === '' ? '' : ',') + keyOf(f) + pair;
  }
  return `{"node_id":${jsonOf(c.node_id)},"created":${jsonOf(c.created)},"fields":{${fields}}}`;
}
