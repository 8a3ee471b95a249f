import { loadConfig } from './config';

describe('ingestor batch settings', () => {
  it('default to the sizes the ingestor was tuned with', () => {
    expect(loadConfig({})).toMatchObject({
      APPLY_BATCH_SIZE: 500,
      APPLY_CONCURRENCY: 16,
      APPLY_PROCESSES: 1,
      APPLY_STATE_CACHE_GRAPHS: 256,
      TRIM_CHUNK_SEQS: 1_000,
      SWEEP_LIMIT: 10_000,
    });
  });

  it('are read from the environment', () => {
    expect(loadConfig({ APPLY_BATCH_SIZE: '50', TRIM_CHUNK_SEQS: '7' })).toMatchObject({
      APPLY_BATCH_SIZE: 50,
      TRIM_CHUNK_SEQS: 7,
    });
  });

  it.each([
    ['APPLY_BATCH_SIZE', '0'],
    ['APPLY_BATCH_SIZE', '10001'],
    ['APPLY_CONCURRENCY', '1.5'],
    ['APPLY_PROCESSES', '17'],
    ['APPLY_STATE_CACHE_GRAPHS', 'many'],
    ['TRIM_CHUNK_SEQS', '-1'],
    ['SWEEP_LIMIT', '1000001'],
  ])('refuse %s=%s with one line naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(
      new RegExp(`^Invalid configuration: ${name}="${value.replace('.', '\\.')}": `),
    );
  });
});

describe('configuration errors', () => {
  it.each([
    ['PORT', 'abc', 'must be a whole number from 1 to 65535'],
    ['PORT', '70000', 'must be a whole number from 1 to 65535'],
    ['RATE_LIMIT_BURST', '2.5', 'must be a whole number of 1 or more'],
    ['LOG_LEVEL', 'loud', 'must be one of fatal, error, warn, info, debug, trace, silent'],
    ['GRAPH_HISTORY_URL', 'localhost', 'must be a URL such as http://127.0.0.1:3000'],
    ['DATABASE_URL', 'mysql://x', 'must be a postgres:// URL'],
  ])('say plainly what %s=%s must be', (name, value, mustBe) => {
    expect(() => loadConfig({ [name]: value })).toThrow(
      `Invalid configuration: ${name}=${JSON.stringify(value)}: ${mustBe}`,
    );
  });
});

describe('QUEUE_PREFIX', () => {
  const prefix = (env: NodeJS.ProcessEnv) => loadConfig(env).QUEUE_PREFIX;

  it('is kept as set', () => {
    expect(prefix({ QUEUE_PREFIX: 'gh', DATABASE_URL: 'postgres://a@db:5432/x' })).toBe('gh');
  });

  it('unset, differs per database and agrees for every process of one', () => {
    const one = prefix({ DATABASE_URL: 'postgres://app:secret@db.local:5432/clone_a' });
    expect(one).toMatch(/^gh-[0-9a-f]{12}$/);
    expect(prefix({ DATABASE_URL: 'postgres://other@DB.local/clone_a?sslmode=disable' })).toBe(one);
    expect(prefix({ DATABASE_URL: 'postgres://app:secret@db.local:5432/clone_b' })).not.toBe(one);
    expect(prefix({ DATABASE_URL: 'postgres://app:secret@db.local:5433/clone_a' })).not.toBe(one);
  });

  it('unset without DATABASE_URL (embedded Postgres), differs per DATA_DIR', () => {
    const a = prefix({ DATA_DIR: '/srv/clone-a/.data' });
    expect(a).toMatch(/^gh-[0-9a-f]{12}$/);
    expect(prefix({ DATA_DIR: '/srv/clone-a/.data/' })).toBe(a);
    expect(prefix({ DATA_DIR: '/srv/clone-b/.data' })).not.toBe(a);
  });
});
