import { Harness } from './__tests__/harness';
import {
  fromStoredNodeRecord,
  NODE_RECORD_VERSION,
  toStoredNodeRecord,
  type StoredNodeRecord,
} from './node-record-version';

describe('stored node records', () => {
  const h = new Harness();
  h.apply('session.started', 'S', { title: 't' });
  const rec = h.rec('S');

  it('are tagged with the version of their shape, and read back as they were', () => {
    const stored = toStoredNodeRecord(rec);
    expect(stored.v).toBe(NODE_RECORD_VERSION);
    expect(fromStoredNodeRecord(JSON.parse(JSON.stringify(stored)))).toEqual(rec);
  });

  it('read rows written before the tag (version 0) as today’s shape', () => {
    expect(fromStoredNodeRecord(JSON.parse(JSON.stringify(rec)))).toEqual(rec);
  });

  it('upgrade older shapes step by step to the newest', () => {
    // as if the record had gained `color` in version 2 and renamed it `hue` in version 3
    const upgrades = [
      (r: Record<string, unknown>) => r,
      (r: Record<string, unknown>) => ({ ...r, color: 'none' }),
      ({ color, ...r }: Record<string, unknown>) => ({ ...r, hue: color }),
    ];
    const v1: StoredNodeRecord = { ...toStoredNodeRecord(rec), v: 1 };
    expect(fromStoredNodeRecord(v1, upgrades)).toEqual({ ...rec, hue: 'none' });
    const v2: StoredNodeRecord = { ...v1, v: 2, color: 'red' };
    expect(fromStoredNodeRecord(v2, upgrades)).toEqual({ ...rec, hue: 'red' });
  });

  it('refuse a record newer than the code', () => {
    expect(() => fromStoredNodeRecord({ ...rec, v: NODE_RECORD_VERSION + 1 })).toThrow(/newer/);
  });
});
