import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * The Redis key prefix of a deployment that sets no QUEUE_PREFIX: `gh-` and a hash of the
 * database it keeps its graphs in (DATABASE_URL's host, port and database name; without
 * DATABASE_URL, the embedded Postgres of DATA_DIR, by its absolute path). Two clones or
 * deployments sharing one Redis thus keep their queues and limiter keys apart, while every
 * process of one deployment (same database) agrees.
 */
export function deploymentPrefix(o: {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
}): string {
  return `gh-${createHash('sha256').update(databaseIdentity(o)).digest('hex').slice(0, 12)}`;
}

function databaseIdentity(o: { DATABASE_URL?: string | undefined; DATA_DIR: string }): string {
  if (!o.DATABASE_URL) return `embedded:${path.resolve(o.DATA_DIR)}`;
  const url = new URL(o.DATABASE_URL);
  const database =
    decodeURIComponent(url.pathname.replace(/^\//, '')) || url.username || 'postgres';
  return `postgres:${url.hostname.toLowerCase()}:${url.port || '5432'}/${database}`;
}
