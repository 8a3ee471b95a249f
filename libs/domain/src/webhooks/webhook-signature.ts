import { createHmac } from 'node:crypto';

/** The header every delivery carries (verified by the client's `webhooks.verify`). */
export const SIGNATURE_HEADER = 'GraphHistory-Signature';
export const NOTICE_ID_HEADER = 'GraphHistory-Notice-Id';

/** Hex HMAC-SHA256 of `<t>.<rawBody>` with `secret`. */
export const webhookSignature = (rawBody: string, t: number, secret: string): string =>
  createHmac('sha256', secret).update(`${t}.${rawBody}`, 'utf8').digest('hex');

/**
 * `t=<unix seconds>,v1=<hex>` with one v1 per secret: the current one, then (during a rotation's
 * overlap) the previous one, as Stripe signs.
 */
export function signatureHeader(rawBody: string, t: number, secrets: readonly string[]): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${webhookSignature(rawBody, t, s)}`)].join(',');
}
