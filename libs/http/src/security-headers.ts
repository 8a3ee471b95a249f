import { createHash } from 'node:crypto';

/** Sent with every answer of both apps. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** The policy of every answer that is not a page (JSON, text, scripts): it may load nothing. */
export const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

/** All the security headers of an answer that is not a page. */
export const DATA_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': DATA_CSP,
};

/**
 * The policy of an HTML page: everything from this origin only, no inline script, no framing;
 * each of `inlineStyles` (the text of a `<style>` element) allowed by its hash.
 */
export function pageCsp(...inlineStyles: string[]): string {
  const hashes = inlineStyles.map(
    (css) => ` 'sha256-${createHash('sha256').update(css).digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    `style-src 'self'${hashes.join('')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const PAGE_CSP = pageCsp();

interface ReplyHeaders {
  headers(values: Record<string, string>): unknown;
  header(name: string, value: string): unknown;
  hasHeader(name: string): boolean;
  getHeader(name: string): unknown;
}

/**
 * Adds the security headers to an answer in an onSend hook; a Content-Security-Policy the route
 * set (a page with inline styles, the viewer) is kept, else pages get the strict page policy and
 * everything else DATA_CSP.
 */
export function setSecurityHeaders(reply: ReplyHeaders): void {
  reply.headers(SECURITY_HEADERS);
  if (reply.hasHeader('content-security-policy')) return;
  const html = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
  reply.header('Content-Security-Policy', html ? PAGE_CSP : DATA_CSP);
}
