import { readCredentials } from './credentials';

const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

describe('readCredentials', () => {
  it('reads Bearer and Basic (key as user name, empty password)', () => {
    expect(readCredentials('Bearer sk_live_abc')).toEqual({ kind: 'key', key: 'sk_live_abc' });
    expect(readCredentials('bearer  sk_live_abc ')).toEqual({ kind: 'key', key: 'sk_live_abc' });
    expect(readCredentials(basic('sk_live_abc:'))).toEqual({ kind: 'key', key: 'sk_live_abc' });
    expect(readCredentials(basic('sk_live_abc'))).toEqual({ kind: 'key', key: 'sk_live_abc' });
  });

  it('tells a missing key from a malformed one', () => {
    expect(readCredentials(undefined)).toEqual({ kind: 'missing' });
    expect(readCredentials('')).toEqual({ kind: 'missing' });
    expect(readCredentials('Bearer')).toEqual({ kind: 'malformed', shown: '' });
    // no Bearer/Basic scheme: said apart, so the message can say how to send the key
    expect(readCredentials('Token sk_live_abc')).toEqual({
      kind: 'malformed',
      shown: 'Token sk_live_abc',
      unschemed: true,
    });
    expect(readCredentials('sk_live_abc')).toEqual({
      kind: 'malformed',
      shown: 'sk_live_abc',
      unschemed: true,
    });
    expect(readCredentials(basic(':pw'))).toEqual({ kind: 'malformed', shown: '' });
    expect(readCredentials(basic('sk_live_abc:secret'))).toEqual({
      kind: 'malformed',
      shown: 'sk_live_abc',
    });
    expect(readCredentials(`Bearer ${'x'.repeat(300)}`).kind).toBe('malformed');
  });
});
