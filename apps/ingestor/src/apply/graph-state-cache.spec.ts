import { AppliedJsonEncoder } from '@graph-history/db';
import { ActiveWindow, createGraphState } from '@graph-history/domain';
import { CachedGraph, GraphStateCache } from './graph-state-cache';

const stateAt = (graphId: number, lastSeq: number): CachedGraph => ({
  state: { ...createGraphState(graphId), lastSeq },
  active: ActiveWindow.of([]),
  json: new AppliedJsonEncoder(graphId),
});

describe('GraphStateCache', () => {
  it('hands out a state only when it is current, and only once', () => {
    const cache = new GraphStateCache(4);
    const state = stateAt(1, 10);
    cache.put(state);
    expect(cache.take(1, 10)).toBe(state);
    expect(cache.take(1, 10)).toBeUndefined();
  });

  it('drops a state that another applier moved past, instead of handing it out', () => {
    const cache = new GraphStateCache(4);
    cache.put(stateAt(1, 10));
    expect(cache.take(1, 12)).toBeUndefined();
    cache.put(stateAt(1, 10));
    expect(cache.take(1, 9)).toBeUndefined();
    expect(cache.take(1, 10)).toBeUndefined();
  });

  it('knows nothing of a graph it never held', () => {
    expect(new GraphStateCache(4).take(7, 0)).toBeUndefined();
  });

  it('replaces the state of a graph that is put again', () => {
    const cache = new GraphStateCache(4);
    cache.put(stateAt(1, 10));
    const newer = stateAt(1, 15);
    cache.put(newer);
    expect(cache.take(1, 15)).toBe(newer);
  });

  it('evicts the least recently put graph past its size', () => {
    const cache = new GraphStateCache(2);
    cache.put(stateAt(1, 1));
    cache.put(stateAt(2, 1));
    cache.put(stateAt(1, 2)); // graph 1 is now the most recent
    cache.put(stateAt(3, 1));
    expect(cache.take(2, 1)).toBeUndefined();
    expect(cache.take(1, 2)?.state.graphId).toBe(1);
    expect(cache.take(3, 1)?.state.graphId).toBe(3);
  });
});
