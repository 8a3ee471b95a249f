import { LIMITS } from '@graph-history/domain';
import { eventKey } from './event-key';

describe('eventKey', () => {
  it('joins its parts with colons', () => {
    expect(eventKey('sess', 'uuid-1', 0)).toBe('sess:uuid-1:0');
  });

  it('bounds long keys and keeps them distinct and stable', () => {
    const long = 'x'.repeat(300);
    const a = eventKey(long, 1);
    const b = eventKey(long, 2);
    expect(a.length).toBeLessThanOrEqual(LIMITS.key);
    expect(a).not.toBe(b);
    expect(eventKey(long, 1)).toBe(a);
  });
});
