import type { ChangeEntry } from '../event';
import { eventIdInOrder, nodeId } from '../ids';
import { presentEvent, type ListedEvent } from '../public-event';
import { inJsonbOrder } from './jsonb-order';

/**
 * An event row's `public_json`: the read API's Event (without `data`) as JSON text, `graph_id`
 * left as "gph_" (see storedNodeJson). Payload and change values are in jsonb's key order (see
 * compareJsonbKeys), the order events have always been sent in (they were first stored as jsonb).
 * The apply writes it with storedEventJsonOf.
 */
export const storedEventJson = (graphId: number, e: ListedEvent): string =>
  JSON.stringify(
    presentEvent(graphId, '', {
      ...e,
      payload: inJsonbOrder(e.payload),
      changes: e.changes.map(changeInJsonbOrder),
    }),
  );

/** The JSON of strings met over and over (event types, sources), up to STRINGS_KEPT of them. */
const stringJson = new Map<string, string>();
const STRINGS_KEPT = 1_000;
function jsonOfString(s: string): string {
  let json = stringJson.get(s);
  if (json === undefined) {
    json = JSON.stringify(s);
    if (stringJson.size < STRINGS_KEPT) stringJson.set(s, json);
  }
  return json;
}

/**
 * storedEventJson of an event whose change entries are already JSON (`changesJson`, each as
 * storedEventJson writes it: see changeJson), in the Node's field order. Written out field by
 * field (ids need no escaping); an event with a field JSON.stringify would leave out goes the
 * long way.
 */
export function storedEventJsonOf(
  graphId: number,
  e: Omit<ListedEvent, 'changes'>,
  changesJson: readonly string[],
): string {
  const { type, created, payload } = e;
  const { provider, provider_version, adapter } = e.source;
  const changes = `[${changesJson.join(',')}]`;
  if (
    typeof type !== 'string' ||
    !Number.isFinite(created) ||
    typeof provider !== 'string' ||
    typeof provider_version !== 'string' ||
    typeof adapter !== 'string' ||
    payload === undefined
  ) {
    const json = JSON.stringify(
      presentEvent(graphId, '', { ...e, payload: inJsonbOrder(payload), changes: [] }),
    );
    return `${json.slice(0, -'[]}'.length)}${changes}}`;
  }
  const source =
    `{"provider":${jsonOfString(provider)},"provider_version":${jsonOfString(provider_version)},` +
    `"adapter":${jsonOfString(adapter)}}`;
  return (
    `{"id":"${eventIdInOrder(graphId, e.seq)}","object":"event","type":${jsonOfString(type)},` +
    `"created":${created},"graph_id":"gph_","node_id":"${nodeId(graphId, e.nodeNo)}",` +
    `"source":${source},"payload":${JSON.stringify(inJsonbOrder(payload))},"changes":${changes}}`
  );
}

/** A change with its object values (attention, task_counts…) in jsonb's key order. */
export function changeInJsonbOrder(c: ChangeEntry): ChangeEntry {
  let fields: ChangeEntry['fields'] | null = null;
  for (const f in c.fields) {
    const { from, to } = c.fields[f]!;
    if ((from === null || typeof from !== 'object') && (to === null || typeof to !== 'object'))
      continue;
    (fields ??= { ...c.fields })[f] = { from: inJsonbOrder(from), to: inJsonbOrder(to) };
  }
  return { node_id: c.node_id, created: c.created, fields: fields ?? c.fields };
}

const BLANK = ',"graph_id":"gph_"';

/**
 * The Event JSON of a stored `public_json` in graph `graphKeyJson` (jsonStringBody of the key);
 * with `nodeJson` (JSON text, or null) it carries `data.node`. `id`, `object`, `type` and
 * `created` come before `graph_id`, and a JSON string never holds `,"` unescaped.
 */
export function eventJsonIn(
  stored: string,
  graphKeyJson: string,
  nodeJson?: string | null,
): string {
  const i = stored.indexOf(BLANK) + BLANK.length - 1;
  if (i < BLANK.length - 1) throw new Error('A stored event JSON without its blank graph_id.');
  const head = stored.slice(0, i) + graphKeyJson;
  // slices of the stored text, not of the spliced one: no copy of the event per item
  return nodeJson === undefined
    ? head + stored.slice(i)
    : `${head}${stored.slice(i, -1)},"data":{"node":${nodeJson ?? 'null'}}}`;
}
