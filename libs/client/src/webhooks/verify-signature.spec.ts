import { createHmac } from 'node:crypto';
import { generateWebhookSecret, signatureHeader } from '@graph-history/domain';
import { verify, WebhookSignatureError } from './verify-signature';

const body = JSON.stringify({ id: 'ntc_1', object: 'notice', type: 'node.failed', created: 1 });
const NOW = 1_790_000_000_000;
const t = NOW / 1000;
const at = (ms: number) => ({ now: () => ms });

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookSignatureError);
    return (err as WebhookSignatureError).code;
  }
  throw new Error('verify accepted it');
}

describe('webhooks.verify', () => {
  const secret = generateWebhookSecret();

  it('accepts a delivery signed as the sender signs it and returns the notice', async () => {
    const hex = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    await expect(verify(body, `t=${t},v1=${hex}`, secret, at(NOW))).resolves.toEqual(
      JSON.parse(body),
    );
    const header = signatureHeader(body, t, [secret]);
    expect(header).toBe(`t=${t},v1=${hex}`);
    await expect(verify(new TextEncoder().encode(body), header, secret, at(NOW))).resolves.toEqual(
      JSON.parse(body),
    );
  });

  it('refuses a tampered body, timestamp or signature, and a wrong secret', async () => {
    const header = signatureHeader(body, t, [secret]);
    expect(await codeOf(verify(body.replace('failed', 'ended'), header, secret, at(NOW)))).toBe(
      'no_matching_signature',
    );
    expect(await codeOf(verify(`${body} `, header, secret, at(NOW)))).toBe('no_matching_signature');
    const shifted = header.replace(`t=${t}`, `t=${t + 1}`);
    expect(await codeOf(verify(body, shifted, secret, at(NOW)))).toBe('no_matching_signature');
    const flipped = header.replace(/v1=(.)/, (_m, c: string) => `v1=${c === 'a' ? 'b' : 'a'}`);
    expect(await codeOf(verify(body, flipped, secret, at(NOW)))).toBe('no_matching_signature');
    expect(await codeOf(verify(body, header, generateWebhookSecret(), at(NOW)))).toBe(
      'no_matching_signature',
    );
  });

  it('refuses a stale or future timestamp beyond the tolerance, and 0 skips the check', async () => {
    const header = signatureHeader(body, t, [secret]);
    await expect(verify(body, header, secret, at(NOW + 300_000))).resolves.toBeDefined();
    expect(await codeOf(verify(body, header, secret, at(NOW + 301_000)))).toBe('stale_timestamp');
    expect(await codeOf(verify(body, header, secret, at(NOW - 301_000)))).toBe('stale_timestamp');
    expect(
      await codeOf(verify(body, header, secret, { toleranceSeconds: 10, now: () => NOW + 11_000 })),
    ).toBe('stale_timestamp');
    await expect(
      verify(body, header, secret, { toleranceSeconds: 0, now: () => NOW + 86_400_000 }),
    ).resolves.toBeDefined();
  });

  it('during a rotation, accepts either secret; after it, only the new one', async () => {
    const next = generateWebhookSecret();
    const during = signatureHeader(body, t, [next, secret]);
    await expect(verify(body, during, next, at(NOW))).resolves.toBeDefined();
    await expect(verify(body, during, secret, at(NOW))).resolves.toBeDefined();
    await expect(verify(body, during, [secret, next], at(NOW))).resolves.toBeDefined();
    const after = signatureHeader(body, t, [next]);
    expect(await codeOf(verify(body, after, secret, at(NOW)))).toBe('no_matching_signature');
    await expect(verify(body, after, [secret, next], at(NOW))).resolves.toBeDefined();
  });

  it('refuses a missing or malformed header', async () => {
    expect(await codeOf(verify(body, undefined, secret, at(NOW)))).toBe('missing_header');
    expect(await codeOf(verify(body, '', secret, at(NOW)))).toBe('missing_header');
    expect(await codeOf(verify(body, `t=${t}`, secret, at(NOW)))).toBe('malformed_header');
    expect(await codeOf(verify(body, 'v1=' + 'a'.repeat(64), secret, at(NOW)))).toBe(
      'malformed_header',
    );
    expect(await codeOf(verify(body, `t=${t},v1=xyz`, secret, at(NOW)))).toBe('malformed_header');
  });
});
