import { WRITER_SESSION_OPTIONS } from '@graph-history/db';
import { ingestorDbOptions } from './ingestor-db-options';

describe('ingestorDbOptions', () => {
  it('gives each concurrent apply, the trim job and the sweeper a connection, and the HTTP process 12 for stores', () => {
    expect(ingestorDbOptions({ APPLY_CONCURRENCY: 16 }, true).max).toBe(30);
    expect(ingestorDbOptions({ APPLY_CONCURRENCY: 16 }, false).max).toBe(18);
    expect(ingestorDbOptions({ APPLY_CONCURRENCY: 1 }, false).max).toBe(3);
  });

  it('plans the writers generically and keeps idle connections open', () => {
    expect(ingestorDbOptions({ APPLY_CONCURRENCY: 8 }, true)).toMatchObject({
      options: WRITER_SESSION_OPTIONS,
      idleTimeoutMillis: 0,
    });
  });
});
