import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { GraphState } from '../graph-state';
import { NodeRecord } from '../node';
import { NodeNotice, nodeNoticeFacts, noticesOf } from '../notices';
import { applyEvent, createGraphState, RejectedEventError } from '../reducer';
import { parseWatchEvent } from '../watch-event';
import { EventGenerator, Step, stepArb } from './event-generator';
import { NaiveOracle } from './naive-oracle';

/**
 * The naive oracle: compares every node of the graph before and after the event, record by
 * record (not through the reducer's change entries), and says which notices the event makes.
 */
function expectedNotices(before: Map<number, NodeRecord>, state: GraphState): NodeNotice[] {
  const out: NodeNotice[] = [];
  for (const now of state.nodes.values()) {
    const old = before.get(now.no);
    const push = (type: NodeNotice['type']) =>
      out.push({ type, nodeNo: now.no, data: nodeNoticeFacts(now) });
    const attentionSet = now.attention !== null && (old === undefined || old.attention === null);
    const stateTo = (s: string) => now.state === s && (old === undefined || old.state !== s);
    if (attentionSet || stateTo('input_required')) push('node.input_required');
    if (stateTo('failed')) push('node.failed');
    if (now.blocked?.cycle === true && old?.blocked?.cycle !== true) push('node.wait_cycle');
    if (now.kind === 'session' && now.ended !== null && (old === undefined || old.ended === null))
      push('session.ended');
  }
  return out;
}

const byNodeAndType = (a: NodeNotice, b: NodeNotice) =>
  a.nodeNo - b.nodeNo || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0);

const seen = new Set<string>();

function runHistory(steps: Step[]): void {
  const state = createGraphState(3);
  const oracle = new NaiveOracle();
  const generator = new EventGenerator();
  for (const step of steps) {
    generator.resync(oracle);
    const parsed = parseWatchEvent(generator.next(step).raw);
    if (!parsed.ok) continue;
    const before = new Map([...state.nodes].map(([no, rec]) => [no, { ...rec }]));
    let applied;
    try {
      applied = applyEvent(state, parsed.event, state.lastSeq + 1);
    } catch (err) {
      if (err instanceof RejectedEventError) continue;
      throw err;
    }
    oracle.apply(parsed.event, applied.event.created);
    const actual = noticesOf(applied);
    const expected = expectedNotices(before, state);
    for (const n of actual) seen.add(n.type);
    if (!isDeepStrictEqual([...actual].sort(byNodeAndType), expected.sort(byNodeAndType)))
      expect(actual).toEqual(expected);
    // one notice per node and type per event
    expect(new Set(actual.map((n) => `${n.nodeNo}:${n.type}`)).size).toBe(actual.length);
  }
}

describe('notices (random histories against a naive oracle)', () => {
  it('are exactly what comparing every node before and after each event says', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 80, size: 'max' }), (steps) =>
        runHistory(steps),
      ),
      { numRuns: 500 },
    );
    // the histories reach every node notice type (else the check above proves little)
    expect([...seen].sort()).toEqual([
      'node.failed',
      'node.input_required',
      'node.wait_cycle',
      'session.ended',
    ]);
  });
});
