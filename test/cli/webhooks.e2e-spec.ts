import { webhooks } from '@graph-history/client';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { WebhookReceiver } from '../support/webhooks';
import { cli } from './support/run-cli';

/** `graph-history webhooks …` against a real database and a real receiver on 127.0.0.1. */
describe('graph-history webhooks', () => {
  let t: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestDatabase();
    env = { DATABASE_URL: t.url, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '1000' };
    receiver = new WebhookReceiver();
    await receiver.start();
    expect((await cli(['keys', 'create', '--account', 'acme'], env)).code).toBe(0);
  });
  afterAll(async () => {
    await receiver.stop();
    await t.drop();
  });

  const json = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));

  it('refuses URLs that reach private, loopback or link-local addresses unless allowed', async () => {
    const strict = { DATABASE_URL: t.url };
    for (const url of [
      receiver.url,
      'http://localhost:8080/x',
      'http://10.0.0.7/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/x',
      'http://[::ffff:127.0.0.1]/x',
    ]) {
      const run = await cli(['webhooks', 'create', '--account', 'acme', '--url', url], strict);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/not a public address/);
    }
    for (const url of ['ftp://example.com/x', 'not a url', 'http://user:pw@example.com/']) {
      const run = await cli(['webhooks', 'create', '--account', 'acme', '--url', url], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^error: --url: /);
    }
    expect(
      json((await cli(['webhooks', 'list', '--account', 'acme', '--json'], env)).stdout),
    ).toEqual([]);
  });

  it('refuses unknown notice types and graph ids', async () => {
    const bad = await cli(
      [
        'webhooks',
        'create',
        '--account',
        'acme',
        '--url',
        receiver.url,
        '--types',
        'node.exploded',
      ],
      env,
    );
    expect(bad.stderr).toMatch(
      /"node\.exploded" is not a notice type; use some of node\.input_required/,
    );
    const badGraph = await cli(
      ['webhooks', 'create', '--account', 'acme', '--url', receiver.url, '--graph', 'nope'],
      env,
    );
    expect(badGraph.stderr).toMatch(/"nope" is not a graph id/);
  });

  it('creates, tests, rotates, lists deliveries and deletes an endpoint', async () => {
    const created = await cli(
      [
        'webhooks',
        'create',
        '--account',
        'acme',
        '--url',
        receiver.url,
        '--types',
        'node.failed,session.ended',
        '--graph',
        'gph_one',
        '--graph',
        'gph_two',
      ],
      env,
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const secret = /\b(whsec_[A-Za-z0-9]{32})\b/.exec(created.stdout)![1]!;
    const id = /\b(we_[0-9a-f]{24})\b/.exec(created.stdout)![1]!;
    expect(created.stdout).toContain('shown only once');

    const [listed] = json(
      (await cli(['webhooks', 'list', '--account', 'acme', '--json'], env)).stdout,
    );
    expect(listed).toEqual({
      id,
      url: receiver.url,
      types: ['node.failed', 'session.ended'],
      graph_ids: ['gph_one', 'gph_two'],
      masked_secret: `whsec_****${secret.slice(-4)}`,
      status: 'enabled',
      disabled: null,
      disabled_reason: null,
      created: expect.any(Number),
    });
    const table = await cli(['webhooks', 'list', '--account', 'acme'], env);
    expect(table.stdout).not.toContain(secret);
    expect(table.stdout).toContain('enabled');

    const tested = await cli(['webhooks', 'test', id], env);
    expect(tested.stdout).toMatch(
      /^Test notice ntc_test_[0-9a-f]{24}: answered 200 in \d+ ms \(delivered\)\.\n$/,
    );
    const first = receiver.received.at(-1)!;
    const signature = String(first.headers['graphhistory-signature']);
    await expect(webhooks.verify(first.rawBody, signature, secret)).resolves.toMatchObject({
      object: 'notice',
      type: 'webhook.test',
    });

    const rotated = await cli(['webhooks', 'rotate-secret', id], env);
    const next = /\b(whsec_[A-Za-z0-9]{32})\b/.exec(rotated.stdout)![1]!;
    expect(next).not.toBe(secret);
    await cli(['webhooks', 'test', id], env);
    const second = receiver.received.at(-1)!;
    const both = String(second.headers['graphhistory-signature']);
    expect(both.split(',').filter((p) => p.startsWith('v1='))).toHaveLength(2);
    await expect(webhooks.verify(second.rawBody, both, next)).resolves.toBeDefined();
    await expect(webhooks.verify(second.rawBody, both, secret)).resolves.toBeDefined();

    receiver.answer = () => ({ status: 500 });
    const failed = await cli(['webhooks', 'test', id, '--json'], env);
    expect(JSON.parse(failed.stdout)).toMatchObject({
      outcome: 'retry',
      status_code: 500,
      error: null,
    });
    const redirected = receiver.requests;
    receiver.answer = () => ({ status: 307, headers: { location: `${receiver.url}/moved` } });
    const moved = await cli(['webhooks', 'test', id, '--json'], env);
    expect(JSON.parse(moved.stdout)).toMatchObject({ outcome: 'retry', status_code: 307 });
    expect(receiver.requests).toBe(redirected + 1); // the redirect is not followed
    receiver.answer = () => ({ status: 200 });

    const attempts = json((await cli(['webhooks', 'deliveries', id, '--json'], env)).stdout);
    expect(attempts.map((a) => a.status_code)).toEqual([307, 500, 200, 200]);
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      error: null,
      notice_id: expect.stringMatching(/^ntc_test_/),
    });
    const text = await cli(['webhooks', 'deliveries', id, '--limit', '1'], env);
    expect(text.stdout.trim().split('\n')).toHaveLength(2);

    expect((await cli(['webhooks', 'delete', id], env)).stdout).toContain(
      `Deleted webhook endpoint ${id}`,
    );
    const gone = await cli(['webhooks', 'test', id], env);
    expect(gone).toMatchObject({ code: 1 });
    expect(gone.stderr).toMatch(/No webhook endpoint has the id/);
  });
});
