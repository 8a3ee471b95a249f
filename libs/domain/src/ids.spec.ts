import { decodeId, encodeId, graphKeyFromId, nodeId } from './ids';

describe('ids', () => {
  it('round-trips node and event ids', () => {
    for (const [g, n] of [
      [1, 1],
      [42, 1_000_000],
      [2 ** 40, 7],
    ] as const) {
      const id = encodeId('node', g, n);
      expect(id.startsWith('node_')).toBe(true);
      expect(decodeId('node', id)).toEqual({ graphId: g, n });
      expect(decodeId('evt', id)).toBeNull();
    }
  });

  it('rejects malformed and non-canonical ids', () => {
    for (const bad of [
      'node_',
      'node_0',
      'node_11',
      'node_1100a',
      'node_1A0001',
      'evt_110001x!',
      'node_110000',
      'node_11' + '0'.repeat(40),
    ]) {
      expect(decodeId('node', bad)).toBeNull();
    }
  });

  it('reads graph keys from graph ids', () => {
    expect(graphKeyFromId('gph_my-share_1')).toBe('my-share_1');
    expect(graphKeyFromId('gph_')).toBeNull();
    expect(graphKeyFromId('gph_a/b')).toBeNull();
    expect(graphKeyFromId('node_a')).toBeNull();
  });

  it('gives the encoded node id from its per-graph cache, also when graphs alternate', () => {
    for (const [g, n] of [
      [1, 1],
      [2, 1],
      [1, 1],
      [1, 70_000],
      [3, 1],
      [1, 70_000],
      [36, 5],
    ] as const)
      expect(nodeId(g, n)).toBe(encodeId('node', g, n));
  });
});
