import { verify } from './verify-signature.js';

/** Receiving webhooks: `await webhooks.verify(rawBody, signatureHeader, secret)`. */
export const webhooks = { verify };
