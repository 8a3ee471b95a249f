import type { WatchEvent } from '@graph-history/domain';
import { GraphSimulation } from './graph-simulation';

/** 2025-11-22T00:06:40Z: the default start, fixed so that a seed always gives the same events. */
export const DEFAULT_START_TIME = 1_763_770_000_000;

export interface SimulationOptions {
  /** Number of graphs, each with its own independent tree of agents. */
  graphs: number;
  seed: number | string;
  /** Time of the first event of every graph, in ms. */
  startTime?: number;
  /** Graph keys are `<prefix>-1` … `<prefix>-N`. Default `sim`. */
  graphKeyPrefix?: string;
}

export interface SimulatedEvent {
  graph: string;
  event: WatchEvent;
}

export interface SimulatedGraph {
  graphKey: string;
  events: WatchEvent[];
}

export function simulatedGraphKeys(options: SimulationOptions): string[] {
  if (!Number.isInteger(options.graphs) || options.graphs < 1) {
    throw new RangeError(`graphs must be a positive integer, got ${options.graphs}`);
  }
  return Array.from(
    { length: options.graphs },
    (_, i) => `${options.graphKeyPrefix ?? 'sim'}-${i + 1}`,
  );
}

function createGraphs(options: SimulationOptions): GraphSimulation[] {
  const start = options.startTime ?? DEFAULT_START_TIME;
  return simulatedGraphKeys(options).map(
    (graphKey) =>
      new GraphSimulation(graphKey, `sim-${options.seed}`, `${options.seed}/${graphKey}`, start),
  );
}

/**
 * The graphs' events merged in time order, as a live feed would deliver them. With `eventsPerGraph`
 * each graph stops after that many events; without it the stream never ends.
 */
export function* simulationStream(
  options: SimulationOptions & { eventsPerGraph?: number },
): Generator<SimulatedEvent, void, undefined> {
  const limit = options.eventsPerGraph ?? Infinity;
  const sims = createGraphs(options);
  const pending = sims.map((sim) => (limit > 0 ? sim.next() : null));
  const sent = sims.map(() => (limit > 0 ? 1 : 0));
  for (;;) {
    let first = -1;
    for (let i = 0; i < sims.length; i++) {
      if (pending[i] && (first < 0 || sims[i]!.now < sims[first]!.now)) first = i;
    }
    if (first < 0) return;
    yield { graph: sims[first]!.graphKey, event: pending[first]! };
    pending[first] = sent[first]! < limit ? sims[first]!.next() : null;
    sent[first]!++;
  }
}

/** `events` WatchEvents for each of `graphs` graphs; the same options always give the same events. */
export function simulate(options: SimulationOptions & { events: number }): SimulatedGraph[] {
  const byKey = new Map<string, WatchEvent[]>();
  for (const { graph, event } of simulationStream({ ...options, eventsPerGraph: options.events })) {
    let list = byKey.get(graph);
    if (!list) byKey.set(graph, (list = []));
    list.push(event);
  }
  return simulatedGraphKeys(options).map((graphKey) => ({
    graphKey,
    events: byKey.get(graphKey) ?? [],
  }));
}
