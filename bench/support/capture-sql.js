/* eslint-disable @typescript-eslint/no-require-imports */
/* global require, __dirname, process, performance */
/**
 * `node -r ./bench/support/capture-sql.js <service>`: records every SQL statement the service's
 * pg clients run (count and total ms from call to answer, per distinct text) and the plans that
 * auto_explain sends as NOTICEs (the slowest per text), and writes them as JSON to
 * $CAPTURE_SQL_FILE when the process exits. Used by `pnpm profile:api` / `pnpm profile:ingest`.
 */
const fs = require('node:fs');
const path = require('node:path');

const pg = require(require.resolve('pg', { paths: [path.resolve(__dirname, '../../libs/db')] }));
const statements = new Map();
const entry = (text) => {
  let s = statements.get(text);
  if (!s) statements.set(text, (s = { text, count: 0, totalMs: 0, plan: null, planMs: -1 }));
  return s;
};

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, ...rest) {
  const text = typeof config === 'string' ? config : config && config.text;
  if (!this.__captureNotices) {
    this.__captureNotices = true;
    this.on('notice', (msg) => {
      // auto_explain: "duration: 1.2 ms  plan:\nQuery Text: <sql lines>\n<plan, first line has (cost=…)>"
      const m = /^duration: ([\d.]+) ms\s+plan:\nQuery Text: ([\s\S]*)$/.exec(msg.message ?? '');
      if (!m) return;
      const lines = m[2].split('\n');
      const top = lines.findIndex((l) => /\(cost=\d/.test(l));
      if (top < 0) return;
      const s = entry(lines.slice(0, top).join('\n').trim());
      if (Number(m[1]) > s.planMs)
        Object.assign(s, { planMs: Number(m[1]), plan: lines.slice(top).join('\n') });
    });
  }
  if (!text) return query.call(this, config, ...rest);
  const s = entry(text.trim());
  const started = performance.now();
  const answered = () => (s.totalMs += performance.now() - started);
  s.count++;
  // pg-pool passes a callback (prepared statements go that way); Kysely awaits the promise.
  const callback = rest.findIndex((a) => typeof a === 'function');
  if (callback >= 0) {
    const done = rest[callback];
    rest[callback] = function (...args) {
      answered();
      return done.apply(this, args);
    };
  }
  const result = query.call(this, config, ...rest);
  if (callback < 0 && result && typeof result.then === 'function')
    result.then(answered, () => undefined);
  return result;
};

process.on('exit', () => {
  if (process.env.CAPTURE_SQL_FILE)
    fs.writeFileSync(process.env.CAPTURE_SQL_FILE, JSON.stringify([...statements.values()]));
});
