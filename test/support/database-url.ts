import { createHash } from 'node:crypto';

/** Names what this checkout's test runs create on shared servers, so parallel checkouts do not collide. */
export const CHECKOUT_ID = createHash('sha1').update(__dirname).digest('hex').slice(0, 8);

/** The migrated template database each test file clones; dropped by the global teardown. */
export const TEMPLATE_DB = `gh_template_${CHECKOUT_ID}`;

/** The prefix of every per-test database of this checkout (`gh_test_<checkout>_<random>`). */
export const TEST_DB_PREFIX = `gh_test_${CHECKOUT_ID}_`;

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
