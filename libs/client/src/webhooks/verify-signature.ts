/** Thrown by `webhooks.verify` when a delivery's signature does not prove it came from us. */
export class WebhookSignatureError extends Error {
  constructor(
    message: string,
    /** `missing_header`, `malformed_header`, `stale_timestamp` or `no_matching_signature`. */
    readonly code: string,
  ) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

export interface VerifyOptions {
  /**
   * How far (seconds) the signature's timestamp may be from now, either way, against replays;
   * default 300. 0 skips the check.
   */
  toleranceSeconds?: number;
  /** The current time in ms (tests); default Date.now. */
  now?: () => number;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

interface ParsedHeader {
  t: number;
  v1: Uint8Array<ArrayBuffer>[];
}

function parseHeader(header: string): ParsedHeader | null {
  let t: number | null = null;
  const v1: Uint8Array<ArrayBuffer>[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const [key, value] = [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v1' && HEX_SIGNATURE.test(value)) v1.push(hexBytes(value));
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function signedPayload(t: number, rawBody: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const prefix = encoder.encode(`${t}.`);
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const payload = new Uint8Array(prefix.length + body.length);
  payload.set(prefix);
  payload.set(body, prefix.length);
  return payload;
}

/**
 * Checks a webhook delivery and returns its notice (the parsed body). `rawBody` must be the body
 * exactly as received (bytes or the string they decode to), before any JSON parsing; `header` is
 * the `GraphHistory-Signature` header; `secret` the endpoint's `whsec_…` secret, or several (e.g.
 * both while you switch to a rotated one): any v1 signature made with any of them is accepted.
 * Throws WebhookSignatureError otherwise. Uses Web Crypto (constant-time comparison), so it runs
 * in Node 20+ and browsers alike.
 */
export async function verify<T = Record<string, unknown>>(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<T> {
  if (!header)
    throw new WebhookSignatureError('No GraphHistory-Signature header', 'missing_header');
  const parsed = parseHeader(header);
  if (!parsed)
    throw new WebhookSignatureError(
      'The GraphHistory-Signature header has no t=<seconds> or no v1=<hex> signature',
      'malformed_header',
    );
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (tolerance > 0 && Math.abs(nowSeconds - parsed.t) > tolerance)
    throw new WebhookSignatureError(
      `The signature's timestamp is ${nowSeconds - parsed.t} s from now, beyond the tolerance of ${tolerance} s`,
      'stale_timestamp',
    );
  const payload = signedPayload(parsed.t, rawBody);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  for (const s of secrets) {
    const key = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(s),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    for (const signature of parsed.v1)
      if (await crypto.subtle.verify('HMAC', key, signature, payload)) {
        const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
        return JSON.parse(text) as T;
      }
  }
  throw new WebhookSignatureError(
    'No signature of the header matches the body with the given secret',
    'no_matching_signature',
  );
}
