import { parse, serialize } from 'cookie';
import type { FastifyRequest } from 'fastify';

/** The viewer's session cookie: an opaque token; the server keeps only its hash. */
export const SESSION_COOKIE = 'gh_session';

/** The session token a request carries, if any. */
export function readSessionToken(req: FastifyRequest): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  const token = parse(header)[SESSION_COOKIE];
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}

/** `Secure` whenever the page is served over HTTPS (directly or behind a trusted proxy). */
const secure = (req: FastifyRequest, publicUrl: string) =>
  req.protocol === 'https' || publicUrl.startsWith('https:');

export function sessionCookie(
  req: FastifyRequest,
  publicUrl: string,
  token: string,
  maxAgeMs: number,
): string {
  return serialize(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(req, publicUrl),
    path: '/',
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

export function clearedSessionCookie(req: FastifyRequest, publicUrl: string): string {
  return serialize(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(req, publicUrl),
    path: '/',
    maxAge: 0,
  });
}
