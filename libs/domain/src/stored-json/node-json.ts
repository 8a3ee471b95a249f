import { presentNode } from '../public-node';
import type { NodeRecord } from '../node';
import type { PublicNode } from '../public/node.schema';

/**
 * A version row's `public_json`: the read API's Node for the version, without expansions, as
 * JSON text, with its per-read fields left blank: `as_of_event_id` "", `graph_id` "gph_" (the
 * apply does not know the key; it never changes) and `stale` false. `nodeJsonAt` fills them in.
 */
export const storedNodeJson = (graphId: number, rec: NodeRecord): string =>
  storedNodeJsonOf(presentNode(graphId, '', rec, '', false));

/** storedNodeJson of the Node presented with blank per-read fields (AppliedEvent.presented). */
export const storedNodeJsonOf = (presented: PublicNode): string => JSON.stringify(presented);

const BLANKS = '"as_of_event_id":"","graph_id":"gph_"';
const NOT_STALE = ',"stale":false,';
const STALE = ',"stale":true,';

/**
 * The Node JSON of a stored `public_json` shown as of `asOfEventId`, with `stale` judged at that
 * moment; `graphKeyJson` is the graph key as it goes inside a JSON string (`jsonStringBody`). No
 * key before `stale` holds an object, and a JSON string never holds `,"` unescaped, so the first
 * match of each blank is the field itself.
 */
export function nodeJsonAt(
  stored: string,
  graphKeyJson: string,
  asOfEventId: string,
  stale: boolean,
): string {
  const i = stored.indexOf(BLANKS);
  if (i < 0) throw new Error('A stored node JSON without its blank fields.');
  const head = `${stored.slice(0, i)}"as_of_event_id":${JSON.stringify(asOfEventId)},"graph_id":"gph_${graphKeyJson}"`;
  const rest = stored.slice(i + BLANKS.length);
  if (!stale) return head + rest;
  const j = rest.indexOf(NOT_STALE);
  if (j < 0) throw new Error('A stored node JSON without its stale field.');
  return head + rest.slice(0, j) + STALE + rest.slice(j + NOT_STALE.length);
}

/** `s` as it stands between the quotes of a JSON string. */
export const jsonStringBody = (s: string): string => JSON.stringify(s).slice(1, -1);
