/** Template database name, unique per checkout so parallel runs on one server do not collide. */
import { createHash } from 'node:crypto';

export const TEMPLATE_DB = `gh_template_${createHash('sha1').update(__dirname).digest('hex').slice(0, 8)}`;

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
