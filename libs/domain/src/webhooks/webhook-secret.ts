import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `whsec_` and 32 random characters (190 bits), shown once when made. */
export function generateWebhookSecret(): string {
  let body = '';
  for (const b of randomBytes(32)) body += ALPHABET[b % ALPHABET.length];
  return `whsec_${body}`;
}

/** `whsec_****a1b2`: what `webhooks list` shows of a secret. */
export const maskWebhookSecret = (secret: string): string => `whsec_****${secret.slice(-4)}`;
