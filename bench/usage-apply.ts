/**
 * `pnpm bench:usage`: what the apply spends on one `usage.reported` (reducer and stored JSON; it
 * rewrites the node and every ancestor's `descendant_usage`), against a `status` on the same
 * node, for a node at depth 0, 5 and 32 (the deepest a tree goes). No database: a random id key.
 * Prints microseconds per event (best of five rounds of 2,000 events) and the node versions one
 * event writes.
 */
import { randomBytes } from 'node:crypto';
import { AppliedJsonEncoder } from '@graph-history/db';
import { applyEvent, createGraphState, useIdKey, type WatchEvent } from '@graph-history/domain';

const EVENTS = 2_000;
const ROUNDS = 5;
const SOURCE = { provider: 'claude-code', provider_version: '2.0.14', adapter: 'bench/1' };
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5', 'gpt-5-codex'];

function round(kind: 'usage' | 'status', depth: number): { us: number; versions: number } {
  const state = createGraphState(1);
  const json = new AppliedJsonEncoder(state.graphId);
  let seq = 0;
  const ev = (type: string, node: string, payload: object) =>
    ({ key: `k${seq}`, type, created: 1_000 + seq, node, source: SOURCE, payload }) as WatchEvent;
  json.encode(applyEvent(state, ev('session.started', 'S', {}), ++seq));
  let ref = 'S';
  for (let d = 1; d <= depth; d++) {
    const child = `S/${d}`;
    const spawn = { parent: ref, agent_type: 'x', purpose: 'p', background: true };
    json.encode(applyEvent(state, ev('agent.spawned', child, spawn), ++seq));
    ref = child;
  }
  let versions = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < EVENTS; i++) {
    const e =
      kind === 'usage'
        ? ev('usage.reported', ref, {
            model: MODELS[i % MODELS.length],
            input_tokens: 10,
            output_tokens: 200,
            cache_read_tokens: 30_000,
          })
        : ev('status', ref, { state: i % 2 ? 'working' : 'idle' });
    const applied = applyEvent(state, e, ++seq);
    json.encode(applied);
    versions += applied.versions.length;
  }
  return {
    us: Number(process.hrtime.bigint() - start) / 1e3 / EVENTS,
    versions: versions / EVENTS,
  };
}

useIdKey(randomBytes(16));
for (const depth of [0, 5, 32]) {
  for (const kind of ['status', 'usage'] as const) {
    const runs = Array.from({ length: ROUNDS }, () => round(kind, depth));
    const best = Math.min(...runs.map((r) => r.us));
    console.log(
      `${kind.padEnd(6)} depth ${String(depth).padStart(2)}: ${best.toFixed(1)} µs/event, ${runs[0]!.versions} node versions/event`,
    );
  }
}
