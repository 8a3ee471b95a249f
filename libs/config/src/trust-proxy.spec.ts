import { ConfigError, loadConfig } from './config';

const trust = (v: string | undefined) => loadConfig({ TRUST_PROXY: v }).TRUST_PROXY;

describe('TRUST_PROXY', () => {
  it('is no proxy by default, a hop count, or a list of proxy addresses and CIDRs', () => {
    expect(trust(undefined)).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    // `true` trusts one hop (one load balancer), never every address in X-Forwarded-For
    expect(trust('true')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 192.168.1.7,::1,fd00::/8,loopback')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('stops start-up on anything else, naming the variable', () => {
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0.1/8/2', '300', 'example.com'])
      expect(() => trust(bad)).toThrow(ConfigError);
    expect(() => trust('10.0.0.0/33')).toThrow(/TRUST_PROXY="10.0.0.0\/33"/);
  });
});
