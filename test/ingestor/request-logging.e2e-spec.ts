import { createTestDatabase, TestDatabase } from '../support/test-database';
import { createKey } from './support/api-keys';
import { deleteQueueKeys, uniqueQueuePrefix, waitFor } from './support/ingestor-harness';
import { IngestorProcess } from './support/ingestor-process';
import { validRun } from './support/watch-events';
import { metricsAuth } from '../support/metrics-token';

interface RequestLine {
  msg: string;
  req: { id: string; method: string; url: string };
}

/** The "request completed" lines among a process's JSON log output. */
function requestLines(output: string): RequestLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"request completed"'))
    .map((line) => JSON.parse(line) as RequestLine);
}

/**
 * Against the BUILT ingestor (its logs go to stdout, which only a child process lets a test read):
 * one line per request, except the operations endpoints that probes and scrapers call constantly.
 */
describe('ingestor request logging', () => {
  let t: TestDatabase;
  const prefix = uniqueQueuePrefix();

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await deleteQueueKeys(prefix);
    await t.drop();
  });

  it('logs an ingest request but not /healthz, /readyz or /metrics', async () => {
    const key = await createKey(t.db, 'logs');
    const proc = await IngestorProcess.start({
      databaseUrl: t.url,
      queuePrefix: prefix,
      logLevel: 'info',
    });
    try {
      for (const path of ['/healthz', '/readyz', '/metrics', '/healthz?probe=1']) {
        const headers = path === '/metrics' ? metricsAuth : {};
        expect((await fetch(`${proc.baseUrl}${path}`, { headers })).status).toBe(200);
      }
      const res = await fetch(`${proc.baseUrl}/ingest/v1/graphs/logged/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: key.auth },
        body: JSON.stringify({ events: validRun('log', 2) }),
      });
      expect(res.status).toBe(202);
      const requestId = res.headers.get('request-id');

      const lines = await waitFor('the ingest request to be logged', async () => {
        const found = requestLines(proc.logs());
        return found.some((l) => l.req.id === requestId) && found;
      });
      expect(lines.map((l) => `${l.req.method} ${l.req.url}`)).toEqual([
        'POST /ingest/v1/graphs/logged/events',
      ]);
    } finally {
      proc.kill('SIGTERM');
      await proc.exited;
    }
  });
});
