import proxyAddr from '@fastify/proxy-addr';

/**
 * Whether the peer at `address` is one of the proxies TRUST_PROXY names, by the rule Fastify
 * applies to X-Forwarded-For (proxy-addr): with a hop count every peer is the first proxy.
 */
export function trustedProxy(trustProxy: false | number | string[]): (address: string) => boolean {
  if (trustProxy === false) return () => false;
  if (typeof trustProxy === 'number') return () => trustProxy > 0;
  const trust = proxyAddr.compile(trustProxy);
  return (address) => trust(address, 0);
}
