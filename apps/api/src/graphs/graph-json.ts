import {
  eventId,
  jsonStringBody,
  NO_USAGE,
  NODE_STATES,
  usageTotalsJson,
} from '@graph-history/domain';
import type { GraphAt } from './graph-view.service';

/**
 * The read API's Graph at a moment, as JSON text in GraphSchema's field order, written in one
 * pass without building an object: the one rendering of a Graph, for reads and lists alike.
 * `activeWorking` counts the working nodes not stale at the moment; `pagesUrlJson` is the pages
 * URL as it stands inside a JSON string (jsonStringBody).
 */
export function graphJson(
  { graph, moment, facts }: GraphAt,
  activeWorking: number,
  pagesUrlJson: string,
): string {
  const { counts } = facts;
  const id = jsonStringBody(`gph_${graph.graphKey}`);
  const hasEvents = graph.appliedSeq > 0 && graph.firstSeq !== null;
  const first = hasEvents ? `"${eventId(graph.graphId, graph.firstSeq!)}"` : 'null';
  const last = hasEvents ? `"${eventId(graph.graphId, graph.appliedSeq)}"` : 'null';
  const byState = counts.by_state;
  let states = '';
  for (const state of NODE_STATES) states += `,"${state}":${byState[state] ?? 0}`;
  const stale = JSON.stringify(Math.max(0, byState.working - activeWorking));
  const error = graph.applyError;
  return (
    `{"id":"${id}","object":"graph","as_of_event_id":"${moment.eventId}",` +
    `"source":${JSON.stringify(graph.source)},"url":"${pagesUrlJson}${id}",` +
    `"created":${graph.created},"last_event":${facts.lastEvent},` +
    `"retention":{"event_count":${hasEvents ? graph.appliedSeq - graph.firstSeq! + 1 : 0},` +
    `"first_event_id":${first},"first_event_created":${facts.firstEventCreated},` +
    `"last_event_id":${last},"last_event_created":${graph.lastEvent}},` +
    `"counts":{"nodes":${counts.nodes},"sessions":${counts.sessions},"agents":${counts.agents},` +
    `"stale":${stale},"blocked":${counts.blocked},"by_state":{${states.slice(1)}}},` +
    `"usage":${usageTotalsJson(counts.usage ?? NO_USAGE)}` +
    (error
      ? `,"apply_error":{"code":"event_rejected","message":${JSON.stringify(applyErrorMessage(error.message))},"since":${error.since}}}`
      : '}')
  );
}

/** What a Graph's `apply_error.message` says of the refusal `message`. */
const applyErrorMessage = (message: string): string =>
  `Newer events are stored but not shown until an operator resolves this: ${message}`;
