import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPublicAddress } from '@graph-history/domain';

/** A webhook URL that may not be used, and why (one sentence). */
export class WebhookUrlError extends Error {}

/** A URL checked for sending: the address its host resolved to, which the request connects to. */
export interface CheckedWebhookUrl {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** `url` parsed as an http(s) URL without credentials, or a WebhookUrlError. */
export function parseWebhookUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookUrlError(`${JSON.stringify(url)} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new WebhookUrlError(`${JSON.stringify(url)}: only http and https URLs are allowed`);
  if (parsed.username || parsed.password)
    throw new WebhookUrlError(`${JSON.stringify(url)}: a URL may not hold credentials`);
  return parsed;
}

/**
 * Resolves the URL's host and refuses it when ANY address it resolves to is not public (private,
 * loopback, link-local…, see isPublicAddress) unless `allowPrivate`; the caller connects to the
 * returned address, so a second resolution (DNS rebinding) cannot send it elsewhere.
 */
export async function checkWebhookUrl(
  url: string,
  allowPrivate: boolean,
): Promise<CheckedWebhookUrl> {
  const parsed = parseWebhookUrl(url);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true, verbatim: true }).catch((err: NodeJS.ErrnoException) => {
        throw new WebhookUrlError(`${host} does not resolve (${err.code ?? err.message})`);
      });
  if (addresses.length === 0) throw new WebhookUrlError(`${host} does not resolve`);
  const refused = addresses.find((a) => !isPublicAddress(a.address));
  if (refused && !allowPrivate)
    throw new WebhookUrlError(
      `${host} resolves to ${refused.address}, which is not a public address (WEBHOOK_ALLOW_PRIVATE_URLS=true allows it)`,
    );
  const first = addresses[0]!;
  return { url: parsed, address: first.address, family: first.family === 6 ? 6 : 4 };
}
