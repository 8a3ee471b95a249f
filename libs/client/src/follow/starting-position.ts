import type { Transport } from '../http/transport.js';
import { graphPath } from '../resources/paths.js';
import type { Graph } from '../types/resources.js';

/**
 * The event to follow after: `after` when given (`null`: before the oldest), else the graph's
 * newest event now (null when it has none).
 */
export async function startingPosition(
  transport: Transport,
  graphId: string,
  after: string | null | undefined,
  signal: AbortSignal | undefined,
): Promise<string | null> {
  if (after !== undefined) return after;
  const graph = (await transport.get<Graph>(graphPath(graphId), { signal })).body!;
  return graph.retention.last_event_id;
}
