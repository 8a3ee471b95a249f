import { NODE_FIELDS, NodeSchema, type PublicNode } from '../public/node.schema';

/** The fields presentNode gives (the Node's but its expansions), in their order. */
const required: readonly string[] = NodeSchema.required ?? [];
const FIELDS = NODE_FIELDS.filter((f) => required.includes(f));
const INDEX = new Map(FIELDS.map((f, i) => [f, i]));
const KEYS = FIELDS.map((f) => `${JSON.stringify(f)}:`);
const COMMA_KEYS = KEYS.map((k) => `,${k}`);

/** JSON text of a value; undefined where JSON.stringify leaves the value (or its key) out. */
export const jsonOf = (value: unknown): string | undefined =>
  JSON.stringify(value) as string | undefined;

/**
 * A Node presented with blank per-read fields (see storedNodeJson) and the JSON of each of its
 * fields' values, in FIELDS' order: the node's next version re-encodes only what changed.
 */
export interface EncodedNode {
  readonly node: PublicNode;
  readonly values: readonly (string | undefined)[];
}

export function encodeNode(node: PublicNode): EncodedNode {
  const p = node as unknown as Record<string, unknown>;
  return { node, values: FIELDS.map((f) => jsonOf(p[f])) };
}

/**
 * `next` encoded from `previous`, the same node's last presentation: the fields named in
 * `changed` are re-encoded, every other one must be unchanged (as changedFields tells them).
 */
export function reencodeNode(
  previous: EncodedNode,
  next: PublicNode,
  changed: Record<string, unknown>,
): EncodedNode {
  const p = next as unknown as Record<string, unknown>;
  let values: (string | undefined)[] | null = null;
  for (const f in changed) {
    const i = INDEX.get(f);
    if (i === undefined) return encodeNode(next);
    (values ??= previous.values.slice())[i] = jsonOf(p[f]);
  }
  return { node: next, values: values ?? previous.values };
}

/** The JSON of field `field` of an encoded node (undefined: not there). */
export const encodedField = (e: EncodedNode, field: string): string | undefined => {
  const i = INDEX.get(field);
  return i === undefined
    ? jsonOf((e.node as unknown as Record<string, unknown>)[field])
    : e.values[i];
};

/** `JSON.stringify(e.node)`, from the encoded values. */
export function encodedNodeJson(e: EncodedNode): string {
  const { values } = e;
  let s = '{';
  let first = true;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === undefined) continue;
    s += (first ? KEYS[i]! : COMMA_KEYS[i]!) + v;
    first = false;
  }
  return `${s}}`;
}
