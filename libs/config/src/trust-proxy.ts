import { isIP } from 'node:net';
import { z } from 'zod';

/** proxy-addr's names for address ranges (loopback, link-local and unique-local networks). */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const isAddressOrCidr = (v: string): boolean => {
  if (RANGE_NAMES.has(v)) return true;
  const [address, bits, ...rest] = v.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
};

/**
 * TRUST_PROXY: which proxies in front may tell the client's address in X-Forwarded-For. `false`
 * (none), a hop count (`true` is 1: one load balancer), or a comma-separated list of proxy
 * addresses and CIDRs. The client is the right-most address not added by a trusted proxy, so a
 * client cannot pick its address by sending X-Forwarded-For itself.
 */
export const trustProxy = z
  .string()
  .default('false')
  .transform((v, ctx): false | number | string[] => {
    const value = v.trim();
    if (value === 'false' || value === '0') return false;
    if (value === 'true') return 1;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const list = value.split(',').map((s) => s.trim());
    const bad = list.find((s) => !isAddressOrCidr(s));
    if (bad === undefined) return list;
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `must be false, true, a hop count (0-99) or a comma-separated list of proxy addresses/CIDRs (not ${JSON.stringify(bad)})`,
    });
    return z.NEVER;
  });
