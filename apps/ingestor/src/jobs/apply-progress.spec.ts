import type { PendingGraph } from '@graph-history/db';
import { ApplyProgress } from './apply-progress';

const graph = (graphId: number, appliedSeq: number, unapplied: number): PendingGraph => ({
  graphId,
  accountId: 1,
  appliedSeq,
  unapplied,
  trimDue: false,
  stalled: false,
});

describe('ApplyProgress', () => {
  it('counts every graph with unapplied events as stuck at the first sweep', () => {
    const progress = new ApplyProgress();
    expect(progress.stuck([graph(1, 0, 5), graph(2, 10, 0), graph(3, 7, 1)])).toEqual([1, 3]);
  });

  it('then names only graphs pending at the previous sweep whose applied_seq has not moved', () => {
    const progress = new ApplyProgress();
    progress.stuck([graph(1, 0, 5), graph(2, 10, 3), graph(3, 7, 0)]);
    // 1 stalled; 2 advanced; 3 was not pending before; 4 is new.
    expect(
      progress.stuck([graph(1, 0, 9), graph(2, 12, 1), graph(3, 7, 2), graph(4, 0, 1)]),
    ).toEqual([1]);
    expect(
      progress.stuck([graph(1, 9, 0), graph(2, 12, 4), graph(3, 7, 2), graph(4, 0, 1)]),
    ).toEqual([2, 3, 4]);
  });

  it('forgets graphs that were applied in between', () => {
    const progress = new ApplyProgress();
    progress.stuck([graph(1, 5, 1)]);
    progress.stuck([graph(1, 6, 0)]);
    expect(progress.stuck([graph(1, 6, 3)])).toEqual([]);
  });
});
