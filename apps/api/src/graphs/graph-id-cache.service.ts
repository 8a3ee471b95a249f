import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { GraphReadRepository } from '@graph-history/db';

/** Graph ids kept per process; a graph's key and id never change once assigned. */
const CACHED_GRAPHS = 100_000;

/**
 * `graph_key -> graph_id`, looked up once per key and kept, so hot reads query by id (the
 * distribution key). Unknown keys are not kept: the graph may be created later.
 */
@Injectable()
export class GraphIdCache {
  private readonly ids = new LRUCache<string, number>({ max: CACHED_GRAPHS });

  constructor(private readonly graphs: GraphReadRepository) {}

  /** The id when this process knows it already (no promise on the hot path), else undefined. */
  known(graphKey: string): number | undefined {
    return this.ids.get(graphKey);
  }

  async idOf(graphKey: string): Promise<number | null> {
    const cached = this.ids.get(graphKey);
    if (cached !== undefined) return cached;
    const id = await this.graphs.idByKey(graphKey);
    if (id !== null) this.ids.set(graphKey, id);
    return id;
  }
}
