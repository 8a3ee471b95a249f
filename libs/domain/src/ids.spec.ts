import { randomBytes } from 'node:crypto';
import {
  decodeId,
  encodeId,
  encodeIds,
  encodeReadableId,
  eventId,
  eventIdInOrder,
  graphKeyFromId,
  decodeNoticeId,
  nodeId,
  nodeNoOf,
  noticeId,
} from './ids';
import { useIdKey } from './id-key';

describe('ids', () => {
  it('round-trips notice ids (account and number), and accepts no other kind nor a readable form', () => {
    for (const [a, n] of [
      [1, 1],
      [7, 123_456],
      [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    ] as const) {
      const id = noticeId(a, n);
      expect(id).toMatch(/^ntc_[A-Za-z0-9_-]{22}$/);
      expect(decodeNoticeId(id)).toEqual({ accountId: a, noticeNo: n });
      expect(decodeId('evt', `evt_${id.slice(4)}`)).toBeNull();
      expect(decodeNoticeId(`ntc_${encodeId('evt', a, n).slice(4)}`)).toBeNull();
    }
    expect(decodeNoticeId(encodeReadableId('ntc', 7, 5))).toBeNull();
    expect(decodeNoticeId('ntc_nope')).toBeNull();
  });

  it('round-trips node and event ids, each kind only as itself', () => {
    for (const [g, n] of [
      [1, 1],
      [20_611, 1],
      [42, 1_000_000],
      [2 ** 40, 7],
      [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    ] as const) {
      const id = encodeId('node', g, n);
      expect(id).toMatch(/^node_[A-Za-z0-9_-]{22}$/);
      expect(decodeId('node', id)).toEqual({ graphId: g, n });
      expect(decodeId('evt', id)).toBeNull();
      expect(decodeId('evt', `evt_${id.slice(5)}`)).toBeNull();
      const evt = encodeId('evt', g, n);
      expect(evt).toMatch(/^evt_[A-Za-z0-9_-]{22}$/);
      expect(decodeId('evt', evt)).toEqual({ graphId: g, n });
      expect(evt.slice(4)).not.toBe(id.slice(5));
    }
  });

  it('still accepts ids of the older, readable form, as the same object', () => {
    expect(decodeId('node', 'node_3fwj0001')).toEqual({ graphId: 20_611, n: 1 });
    for (const [g, n] of [
      [1, 1],
      [42, 1_000_000],
      [2 ** 40, 7],
    ] as const) {
      expect(decodeId('node', encodeReadableId('node', g, n))).toEqual({ graphId: g, n });
      expect(decodeId('evt', encodeReadableId('evt', g, n))).toEqual({ graphId: g, n });
      expect(nodeNoOf(encodeReadableId('node', g, n))).toBe(n);
      expect(nodeNoOf(encodeId('node', g, n))).toBe(n);
    }
  });

  it('shows no order or count: consecutive numbers and graphs give unrelated ids', () => {
    const ids = Array.from({ length: 1_000 }, (_, i) => encodeId('node', 20_611, i + 1));
    const sorted = [...ids].sort();
    // sorted ids are in no relation to the numbers they carry
    const inPlace = sorted.filter((id, i) => id === ids[i]).length;
    expect(inPlace).toBeLessThan(20);
    // neighbours share no more leading characters than random strings would (1 in 64 per char)
    const shared = (a: string, b: string) => {
      let i = 5;
      while (a[i] === b[i]) i++;
      return i - 5;
    };
    const prefixes = ids.slice(1).map((id, i) => shared(id, ids[i]!));
    expect(Math.max(...prefixes)).toBeLessThan(4);
    expect(shared(encodeId('evt', 1, 1), encodeId('evt', 2, 1))).toBeLessThan(4);
    // every character position varies (the last one carries 2 bits)
    for (let pos = 5; pos < ids[0]!.length - 1; pos++)
      expect(new Set(ids.map((id) => id[pos])).size).toBeGreaterThan(30);
  });

  it('rejects malformed, non-canonical and forged ids', () => {
    for (const bad of [
      'node_',
      'node_0',
      'node_11',
      'node_1100a',
      'node_1A0001',
      'evt_110001x!',
      'node_110000',
      'node_11' + '0'.repeat(40),
      'node_' + 'A'.repeat(22),
      'node_' + 'a'.repeat(21) + '!',
      'node_' + 'a'.repeat(23),
    ]) {
      expect(decodeId('node', bad)).toBeNull();
    }
    // one block has one id: the other spellings of its last character are refused
    const id = encodeId('node', 3, 4);
    const other = id.slice(0, -1) + String.fromCharCode(id.charCodeAt(id.length - 1) + 1);
    expect(decodeId('node', id)).toEqual({ graphId: 3, n: 4 });
    expect(decodeId('node', other)).toBeNull();
    // a random body passes the check about once in four million
    let passed = 0;
    for (let i = 0; i < 2_000; i++)
      if (decodeId('node', `node_${randomBytes(16).toString('base64url')}`) !== null) passed++;
    expect(passed).toBe(0);
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
    expect(eventId(7, 9)).toBe(encodeId('evt', 7, 9));
  });

  it('seals many ids of a graph at once as it seals each alone', () => {
    const ns = [1, 2, 3, 1_000_000, 2 ** 40, Number.MAX_SAFE_INTEGER, 2];
    for (const prefix of ['evt', 'node'] as const)
      expect(encodeIds(prefix, 2 ** 33 + 5, ns)).toEqual(
        ns.map((n) => encodeId(prefix, 2 ** 33 + 5, n)),
      );
    expect(encodeIds('evt', 1, [])).toEqual([]);
  });

  it('gives event ids asked for in order (or not) as eventId does', () => {
    for (const [g, seq] of [
      [3, 1],
      [3, 2],
      [3, 64],
      [3, 65],
      [3, 200],
      [4, 200],
      [3, 10],
      [3, 9],
    ] as const)
      expect(eventIdInOrder(g, seq)).toBe(eventId(g, seq));
  });

  it('opens a sealed id from its cache as it would without, and forgets it when the key changes', () => {
    const id = encodeId('node', 5, 6);
    expect(decodeId('node', id)).toEqual({ graphId: 5, n: 6 });
    const again = decodeId('node', id)!;
    expect(again).toEqual({ graphId: 5, n: 6 });
    again.n = 99; // what a caller does with its answer stays its own
    expect(decodeId('node', id)).toEqual({ graphId: 5, n: 6 });
    expect(decodeId('evt', `evt_${id.slice(5)}`)).toBeNull();
    const node = nodeId(5, 6);
    expect(node).toBe(id);
    const key = randomBytes(16);
    useIdKey(key);
    // under another key, the same text opens to another block (nearly always no id at all)
    expect(decodeId('node', id)).not.toEqual({ graphId: 5, n: 6 });
    expect(nodeId(5, 6)).not.toBe(node);
    expect(decodeId('node', nodeId(5, 6))).toEqual({ graphId: 5, n: 6 });
  });
});
