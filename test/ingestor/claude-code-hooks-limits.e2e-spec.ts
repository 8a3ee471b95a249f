import { AccountQuotaRepository } from '@graph-history/db';
import { createKey } from './support/api-keys';
import { EndpointFixture, endpointFixture } from './support/endpoint-fixture';

/**
 * The Claude Code hook endpoint under the events endpoint's limits: the account's ingest rate
 * limit (events made + body bytes), its quotas, and the 4 MiB body bound.
 */
describe('POST …/hooks/claude-code: limits', () => {
  let f: EndpointFixture;

  beforeAll(async () => {
    f = await endpointFixture(false, { INGEST_EVENTS_PER_SECOND: '1', INGEST_EVENTS_BURST: '5' });
  });
  afterAll(() => f.close());

  const postHook = (graphKey: string, body: unknown, auth = f.owner.auth) =>
    f.app.request('POST', `/ingest/v1/graphs/${graphKey}/hooks/claude-code`, {
      headers: { 'content-type': 'application/json', authorization: auth },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const hook = (sessionId: string, name: string, fields: Record<string, unknown> = {}) => ({
    session_id: sessionId,
    cwd: '/w',
    hook_event_name: name,
    ...fields,
  });

  it('takes the events a hook makes from the account’s ingest bucket: 429 with Retry-After, nothing stored', async () => {
    // each SubagentStart makes 2 events (the session, the agent; duplicates count too); the bucket holds 5
    expect(
      (await postHook('hl-rate', hook('s1', 'SubagentStart', { agent_id: 'a1' }))).statusCode,
    ).toBe(204);
    expect(
      (await postHook('hl-rate', hook('s1', 'SubagentStart', { agent_id: 'a2' }))).statusCode,
    ).toBe(204);
    const refused = await postHook('hl-rate', hook('s1', 'SubagentStart', { agent_id: 'a3' }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await f.inboxOf('hl-rate')).toHaveLength(3); // the second session.started was a duplicate
  });

  it('refuses a new graph past the account’s graphs quota with 403 quota_exceeded', async () => {
    const key = await createKey(f.t.db, 'hl-one-graph');
    await new AccountQuotaRepository(f.t.db).setOverrides(
      key.accountId,
      { maxGraphs: 1 },
      Date.now(),
    );
    expect((await postHook('hl-q1', hook('s2', 'SessionStart'), key.auth)).statusCode).toBe(204);
    const res = await postHook('hl-q2', hook('s3', 'SessionStart'), key.auth);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'quota_exceeded',
      param: 'graph_key',
      quota: 'graphs',
    });
    expect(await f.graphRow('hl-q2')).toBeUndefined();
  });

  it('answers 413 request_too_large to a payload above 4 MiB', async () => {
    const res = await postHook(
      'hl-big',
      hook('s4', 'PostToolUse', { tool_name: 'Read', tool_response: 'x'.repeat(4 * 1024 * 1024) }),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatchObject({ code: 'request_too_large' });
    expect(await f.graphRow('hl-big')).toBeUndefined();
  });
});
