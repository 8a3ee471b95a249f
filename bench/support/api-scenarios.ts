import type { ApiTargets } from './api-targets';
import type { Target, WrkResult } from './wrk';

/** A target of issue 11, checked against one scenario's figures and the baseline's. */
export interface Goal {
  text: string;
  /** The goal is a share of the baseline's requests/s. */
  ofBaseline?: boolean;
  met: (r: WrkResult, baseline: WrkResult) => boolean;
}

export interface Scenario {
  /** Short name, also the CPU profile's file name. */
  id: string;
  name: string;
  connections: number;
  targets: Target[];
  goal?: Goal;
}

const share = (min: number, p99Ms: number): Goal => ({
  text: `>= ${min * 100}% of baseline, p99 <= ${p99Ms} ms`,
  ofBaseline: true,
  met: (r, b) => r.reqPerSec >= min * b.reqPerSec && r.p99Ms <= p99Ms,
});
const p50AtMost = (ms: number): Goal => ({ text: `p50 <= ${ms} ms`, met: (r) => r.p50Ms <= ms });

/**
 * The read scenarios of `pnpm bench:api` (and `pnpm profile:api`), in the order they run; only
 * those BENCH_API_SCENARIOS names when set.
 */
export function readScenarios(t: ApiTargets, mixed: Target[]): Scenario[] {
  const only = process.env.BENCH_API_SCENARIOS?.split(',').filter(Boolean);
  return allScenarios(t, mixed).filter((s) => !only || only.some((w) => s.id.includes(w)));
}

function allScenarios(t: ApiTargets, mixed: Target[]): Scenario[] {
  return [
    {
      id: 'node-read',
      name: 'node read as of a random retained event',
      connections: 50,
      targets: t.nodeReads,
      goal: share(0.8, 25),
    },
    {
      id: 'graph-read',
      name: 'graph read as of a random retained event',
      connections: 50,
      targets: t.graphReads,
      goal: share(0.6, 25),
    },
    {
      id: 'graph-list',
      name: 'graph list, 100 a page',
      connections: 8,
      targets: t.graphList,
      goal: p50AtMost(10),
    },
    {
      id: 'events-page-1',
      name: 'events page of 1,000, expand[]=data.node',
      connections: 1,
      targets: t.eventPages,
      goal: p50AtMost(30),
    },
    {
      id: 'events-page-4',
      name: 'events page of 1,000, expand[]=data.node',
      connections: 4,
      targets: t.eventPages,
    },
    {
      id: 'descendants-page-1',
      name: 'descendants page of 1,000 (10,000 nodes)',
      connections: 1,
      targets: t.descendantPages,
      goal: p50AtMost(30),
    },
    {
      id: 'descendants-page-4',
      name: 'descendants page of 1,000 (10,000 nodes)',
      connections: 4,
      targets: t.descendantPages,
    },
    {
      id: 'mixed',
      name: 'mixed: 90% node+graph, 10% pages, 1/3 If-None-Match',
      connections: 50,
      targets: mixed,
    },
  ];
}
