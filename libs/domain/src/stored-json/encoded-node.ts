import { NODE_FIELDS, NODE_USAGE_FIELDS, NodeSchema, type PublicNode } from '../public/node.schema';
import { usageJson } from '../usage/usage-json';
import type { Usage } from '../usage/usage';
import { jsonOf } from './json-of';

/** The fields presentNode gives (the Node's but its expansions), in their order. */
const required: readonly string[] = NodeSchema.required ?? [];
const FIELDS = NODE_FIELDS.filter((f) => required.includes(f));
const INDEX = new Map(FIELDS.map((f, i) => [f, i]));
/** What comes before each field's value: `{"id":`, then `,"object":` and so on. */
const KEYS = FIELDS.map((f, i) => `${i === 0 ? '{' : ','}${JSON.stringify(f)}:`);

/**
 * A Node presented with blank per-read fields, its JSON (storedNodeJson) and where each field's
 * value starts in it (in FIELDS' order; null when a value is left out): the node's next version
 * splices in the values that changed instead of encoding every field again.
 */
export interface EncodedNode {
  readonly node: PublicNode;
  readonly json: string;
  readonly starts: readonly number[] | null;
}

const field = (node: PublicNode, i: number): unknown =>
  (node as unknown as Record<string, unknown>)[FIELDS[i]!];

/** Whether field `i` holds a Usage or null. */
const IS_USAGE = FIELDS.map((f) => NODE_USAGE_FIELDS.includes(f));

/** JSON of field `i` of `node`: a usage's written out (usageJson), any other value's by jsonOf. */
function fieldJson(node: PublicNode, i: number): string | undefined {
  const v = field(node, i);
  return IS_USAGE[i] && typeof v === 'object' && v !== null ? usageJson(v as Usage) : jsonOf(v);
}

/** Where value `i` ends: where the next key starts, or at the closing brace. */
const endOf = (e: EncodedNode & { starts: readonly number[] }, i: number): number =>
  i + 1 < FIELDS.length ? e.starts[i + 1]! - KEYS[i + 1]!.length : e.json.length - 1;

export function encodeNode(node: PublicNode): EncodedNode {
  const starts: number[] = [];
  let json = '';
  for (let i = 0; i < FIELDS.length; i++) {
    const v = fieldJson(node, i);
    if (v === undefined) return { node, json: JSON.stringify(node), starts: null };
    json += KEYS[i]!;
    starts.push(json.length);
    json += v;
  }
  return { node, json: `${json}}`, starts };
}

/**
 * `next` encoded from `previous`, the same node's last presentation: the fields named in
 * `changed` are encoded again, every other one must be unchanged (as changedFields tells them).
 */
export function reencodeNode(
  previous: EncodedNode,
  next: PublicNode,
  changed: Record<string, unknown>,
): EncodedNode {
  const at: number[] = [];
  for (const f in changed) {
    const i = INDEX.get(f);
    if (i === undefined || i <= (at[at.length - 1] ?? -1)) return encodeNode(next);
    at.push(i);
  }
  if (at.length === 0) return { node: next, json: previous.json, starts: previous.starts };
  if (previous.starts === null) return encodeNode(next);
  const prev = previous as EncodedNode & { starts: readonly number[] };
  // most changes keep the value's length (a timestamp, a count): the offsets are then shared
  let starts: readonly number[] = prev.starts;
  let json = '';
  let from = 0;
  for (const i of at) {
    const v = fieldJson(next, i);
    if (v === undefined) return encodeNode(next);
    const start = prev.starts[i]!;
    const end = endOf(prev, i);
    json += prev.json.slice(from, start) + v;
    from = end;
    const shift = v.length - (end - start);
    if (shift === 0) continue;
    const moved = starts === prev.starts ? prev.starts.slice() : (starts as number[]);
    for (let j = i + 1; j < moved.length; j++) moved[j]! += shift;
    starts = moved;
  }
  return { node: next, json: json + prev.json.slice(from), starts };
}

/** The JSON of field `name` of an encoded node (undefined: left out). */
export function encodedField(e: EncodedNode, name: string): string | undefined {
  const i = INDEX.get(name);
  if (i === undefined || e.starts === null)
    return jsonOf((e.node as unknown as Record<string, unknown>)[name]);
  return e.json.slice(e.starts[i], endOf(e as EncodedNode & { starts: readonly number[] }, i));
}
