import fc from 'fast-check';
import { isPublicAddress } from './public-address';

/** Naive oracle for IPv4: the IANA special-purpose ranges, as numeric [first, last] bounds. */
const NOT_PUBLIC_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const toNumber = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
const naivePublicV4 = (ip: string) =>
  !NOT_PUBLIC_V4.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const first = toNumber(base);
    return toNumber(ip) >= first && toNumber(ip) < first + size;
  });

describe('isPublicAddress', () => {
  it('agrees with the naive range table on any IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(isPublicAddress(ip)).toBe(naivePublicV4(ip));
      }),
      { numRuns: 20_000 },
    );
  });

  it('judges IPv4-mapped IPv6 as its IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(isPublicAddress(`::ffff:${ip}`)).toBe(naivePublicV4(ip));
      }),
    );
  });

  it.each([
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['ff02::1', false],
    ['2001:db8::1', false],
    ['64:ff9b::7f00:1', false],
    ['2002:7f00:1::1', false],
    ['not an address', false],
  ])('%s is public: %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});
