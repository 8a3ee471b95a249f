/**
 * `pnpm bench:apply-cpu [<other checkout>]`: the apply's CPU per event without I/O (reducer, stored
 * JSON, row assembly and insert statements; see support/apply-cpu-worker.js), in fresh processes
 * with the ingestor's node flags, alternating with another built checkout when one is given. The
 * end-to-end backlog phase of `pnpm bench:ingest` spreads by ±10% between runs on a shared
 * machine; this isolates the JavaScript a change to the apply's CPU usually touches.
 * BENCH_AB_ROUNDS (default 3) sets the number of rounds.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { INGESTOR_NODE_FLAGS } from '../libs/config/src/node-flags';
import { loadAverage } from './support/machine-load';

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);
const WORKER = path.resolve(__dirname, 'support/apply-cpu-worker.js');

interface Measure {
  usPerEvent: number;
  versionsPerEvent: number;
}

const measure = (checkout: string): Measure =>
  JSON.parse(
    execFileSync(process.execPath, [...INGESTOR_NODE_FLAGS, WORKER, checkout], {
      encoding: 'utf8',
    }),
  ) as Measure;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function main(): void {
  const sides = [
    path.resolve(__dirname, '..'),
    ...process.argv.slice(2).map((p) => path.resolve(p)),
  ];
  console.log(`${new Date().toISOString()} ${loadAverage()} at start`);
  const results = sides.map(() => [] as number[]);
  for (let round = 1; round <= ROUNDS; round++) {
    sides.forEach((side, i) => {
      const m = measure(side);
      results[i]!.push(m.usPerEvent);
      console.log(
        `round ${round} ${side}: ${m.usPerEvent.toFixed(2)} µs per event (${m.versionsPerEvent.toFixed(2)} versions per event)`,
      );
    });
  }
  sides.forEach((side, i) =>
    console.log(`median ${side}: ${median(results[i]!).toFixed(2)} µs per event`),
  );
  console.log(`${new Date().toISOString()} ${loadAverage()} at end`);
}

main();
