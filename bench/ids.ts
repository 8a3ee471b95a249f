/**
 * `pnpm bench:ids`: what one id costs to encode and decode (sealed with AES-128, ids.ts), against
 * the readable ids they replaced; the caches the read path goes through, a page's ids sealed at
 * once (encodeIds) and the apply's ids sealed ahead (eventIdInOrder). No database:
 * a random key. Prints microseconds per call, best of five rounds of 200,000 calls.
 */
import { randomBytes } from 'node:crypto';
import {
  decodeId,
  encodeId,
  encodeIds,
  encodeReadableId,
  eventIdInOrder,
  nodeId,
  nodeNoOf,
  useIdKey,
} from '@graph-history/domain';

const CALLS = 200_000;
const ROUNDS = 5;
const GRAPH = 20_611;

function best(what: string, run: (i: number) => unknown): void {
  let min = Infinity;
  let sink = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) if (run(i)) sink++;
    min = Math.min(min, Number(process.hrtime.bigint() - t) / CALLS / 1_000);
  }
  console.log(`${what.padEnd(44)} ${min.toFixed(3)} µs (${sink} truthy)`);
}

useIdKey(randomBytes(16));
const sealed = Array.from({ length: CALLS }, (_, i) => encodeId('node', GRAPH, i + 1));
const readable = Array.from({ length: CALLS }, (_, i) => encodeReadableId('node', GRAPH, i + 1));
best('encodeId (sealed)', (i) => encodeId('node', GRAPH, i + 1));
best('decodeId of a sealed id', (i) => decodeId('node', sealed[i]!));
best('encodeReadableId (before)', (i) => encodeReadableId('node', GRAPH, i + 1));
best('decodeId of a readable id (still accepted)', (i) => decodeId('node', readable[i]!));
best('nodeId, 1,000 nodes of one graph (cached)', (i) => nodeId(GRAPH, (i % 1_000) + 1));
best('nodeNoOf, 1,000 sealed ids (cached)', (i) => nodeNoOf(sealed[i % 1_000]!));
best('decodeId, 1,000 sealed ids (cached)', (i) => decodeId('node', sealed[i % 1_000]!));
const PAGE = Array.from({ length: 1_000 }, (_, i) => i + 1);
best('encodeIds, pages of 1,000 (per id)', (i) =>
  i % 1_000 === 0 ? encodeIds('evt', GRAPH, PAGE) : true,
);
best('eventIdInOrder, seqs in order', (i) => eventIdInOrder(GRAPH, i + 1));
