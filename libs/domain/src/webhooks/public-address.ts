import ipaddr from 'ipaddr.js';

/**
 * True when `ip` is a public unicast address a webhook may be sent to; false for private,
 * loopback, link-local, carrier-grade NAT, multicast, broadcast, reserved, documentation and
 * unspecified ranges and for IPv6 forms embedding an IPv4 address (NAT64, 6to4, Teredo);
 * IPv4-mapped IPv6 addresses are judged as their IPv4 address.
 */
export function isPublicAddress(ip: string): boolean {
  return ipaddr.isValid(ip) && ipaddr.process(ip).range() === 'unicast';
}
