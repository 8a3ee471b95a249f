import { encodeId } from '@graph-history/domain';
import { readNeed } from './read-need';

describe('readNeed', () => {
  const evt = (graphId: number, seq: number) => encodeId('evt', graphId, seq);

  it('lets reads of now go anywhere', () => {
    expect(readNeed('/api/v1/graphs')).toEqual({ kind: 'any' });
    expect(readNeed('/api/v1/graphs/gph_a/nodes?limit=5')).toEqual({ kind: 'any' });
    expect(readNeed('/readyz')).toEqual({ kind: 'any' });
  });

  it('needs the event of as_of or of an event cursor, the newest of them', () => {
    expect(readNeed(`/api/v1/graphs/gph_a?as_of=${evt(7, 40)}`)).toEqual({
      kind: 'event',
      graphId: 7,
      seq: 40,
    });
    expect(
      readNeed(`/api/v1/graphs/gph_a/events?as_of=${evt(7, 40)}&starting_after=${evt(7, 12)}`),
    ).toEqual({
      kind: 'event',
      graphId: 7,
      seq: 40,
    });
  });

  it('needs a time for as_of in ms, on the graph of the path', () => {
    expect(readNeed('/api/v1/graphs/gph_my%2Dgraph/nodes?as_of=1700000000000')).toEqual({
      kind: 'time',
      graphKey: 'my-graph',
      time: 1_700_000_000_000,
    });
  });

  it('sends cursors a replica may not hold yet to the primary', () => {
    expect(readNeed('/api/v1/graphs?starting_after=gph_b')).toEqual({ kind: 'primary' });
    expect(readNeed('/api/v1/graphs/gph_a/nodes?starting_after=node_x')).toEqual({
      kind: 'primary',
    });
  });
});
