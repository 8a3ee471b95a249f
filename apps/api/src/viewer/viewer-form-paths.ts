/**
 * Paths that take a form post (the rest of the service is read-only). Nest's Fastify adapter
 * parses their `application/x-www-form-urlencoded` bodies.
 */
export const VIEWER_FORM_PATHS: ReadonlySet<string> = new Set(['/sign-in', '/sign-out']);
