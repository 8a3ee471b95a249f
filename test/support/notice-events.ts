import type { WatchEvent } from '@graph-history/domain';

const T0 = 1_763_770_000_000;
const source = { provider: 'claude-code', provider_version: '2.0.14', adapter: 'test/1' };

/**
 * A session whose events make one notice of every node type: agent a0 asks for permission
 * (node.input_required), a0 and a1 wait on each other (node.wait_cycle, each), a1 fails
 * (node.failed), the session ends (session.ended). `created` grows by 10 ms per event.
 */
export function noticeRun(prefix: string, t0 = T0): WatchEvent[] {
  const [s, a0, a1] = [`${prefix}-s`, `${prefix}-s/a0`, `${prefix}-s/a1`];
  const steps: [string, string, Record<string, unknown>][] = [
    ['session.started', s, { title: `notices ${prefix}` }],
    ['agent.spawned', a0, { parent: s, agent_type: 'Explore', purpose: 'read', background: true }],
    ['agent.spawned', a1, { parent: s, agent_type: 'Plan', purpose: 'plan', background: true }],
    ['attention.raised', a0, { reason: 'permission', message: 'Allow rm -rf build?' }],
    ['wait.started', a0, { on: [a1] }],
    ['wait.started', a1, { on: [a0] }],
    ['wait.ended', a1, {}],
    ['ended', a1, { state: 'failed', summary: 'gave up' }],
    ['ended', a0, { state: 'completed' }],
    ['ended', s, { state: 'completed' }],
  ];
  return steps.map(([type, node, payload], i) => ({
    key: `${prefix}-${i}`,
    type,
    created: t0 + i * 10,
    node,
    source,
    payload,
  })) as unknown as WatchEvent[];
}

/** The notices noticeRun makes: type and the index of the event that makes each. */
export const NOTICE_RUN_NOTICES = [
  { type: 'node.input_required', event: 3, node: 'a0' },
  { type: 'node.wait_cycle', event: 5, node: 'a0' },
  { type: 'node.wait_cycle', event: 5, node: 'a1' },
  { type: 'node.failed', event: 7, node: 'a1' },
  { type: 'session.ended', event: 9, node: 's' },
] as const;
