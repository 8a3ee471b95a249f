import { admin } from '../../test/support/test-database';

const SETTINGS = [
  "session_preload_libraries = 'auto_explain'",
  'auto_explain.log_min_duration = 0',
  'auto_explain.log_analyze = on',
  'auto_explain.log_buffers = on',
  'auto_explain.log_nested_statements = off',
  // sent to the client (as a NOTICE, which bench/support/capture-sql.js collects), not the server log
  'auto_explain.log_level = notice',
];

/**
 * Makes every new session of the database EXPLAIN (ANALYZE, BUFFERS) each statement it runs
 * (auto_explain) and send the plan to its client; `off` resets that. Needs a superuser.
 */
export const autoExplain = (database: string, on: boolean): Promise<void> =>
  admin(async (c) => {
    if (!on) await c.query(`alter database ${database} reset all`);
    else for (const s of SETTINGS) await c.query(`alter database ${database} set ${s}`);
  });
