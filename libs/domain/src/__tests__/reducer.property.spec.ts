import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { AppliedEvent } from '../applied-event';
import { ChangeEntry } from '../event';
import { storedCountsJson, StoredGraphCounts } from '../graph-counts';
import { GraphState } from '../graph-state';
import { decodeId } from '../ids';
import { presentEvent } from '../public-event';
import { PublicNodeBody, publicNodeBody } from '../public-node';
import {
  inJsonbOrder,
  nodeRecordFromJson,
  storedEventJson,
  listedEventFromJson,
  storedNodeJson,
  storedNodeJsonOf,
} from '../stored-json';
import {
  applyEvent,
  createGraphState,
  descendantsUpperBound,
  graphStateFromRows,
  RejectedEventError,
  RefStatus,
  validateBatch,
} from '../reducer';
import { LIMITS, parseWatchEvent, Rejection } from '../watch-event';
import { EventGenerator, GeneratedEvent, Step, stepArb } from './event-generator';
import { NaiveOracle } from './naive-oracle';
import { expectUsageOf } from './naive-usage';
import { rowsOf, snapshotState } from './state-snapshot';

/** Generated times are arbitrary: no clock refuses them here (the window has its own test). */
const ANY_TIME = Number.POSITIVE_INFINITY;

/** `expect(actual).toEqual(expected)`, but only pays for Jest's diff when the values differ. */
function expectEqual(actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
}

/** Every field that differs between two public snapshots, computed independently of the reducer. */
function expectedChanges(
  prev: Map<number, PublicNodeBody>,
  state: GraphState,
  eventNodeNo: number,
): ChangeEntry[] {
  const entries: { no: number; entry: ChangeEntry }[] = [];
  for (const rec of state.nodes.values()) {
    const now = publicNodeBody(state.graphId, rec) as unknown as Record<string, unknown>;
    const old = prev.get(rec.no) as unknown as Record<string, unknown> | undefined;
    const fields: ChangeEntry['fields'] = {};
    for (const name of Object.keys(now)) {
      if (name === 'id') continue;
      if (old === undefined ? now[name] !== null : !isDeepStrictEqual(old[name], now[name])) {
        fields[name] = { from: old === undefined ? null : old[name], to: now[name] };
      }
    }
    if (old === undefined || Object.keys(fields).length)
      entries.push({
        no: rec.no,
        entry: { node_id: now.id as string, created: old === undefined, fields },
      });
  }
  entries.sort((a, b) => (a.no === eventNodeNo ? -1 : b.no === eventNodeNo ? 1 : a.no - b.no));
  return entries.map((e) => e.entry);
}

function checkAgainstOracle(state: GraphState, oracle: NaiveOracle, applied: AppliedEvent): void {
  const expectedCounts = oracle.expectedCounts();
  const { usage: _u, ...expectedNodeCounts } = expectedCounts;
  const withoutUsage = ({ usage: _, ...counts }: StoredGraphCounts) => counts;
  expectEqual(withoutUsage(state.counts), expectedNodeCounts);
  expectEqual(withoutUsage(applied.event.counts), expectedNodeCounts);
  expectUsageOf(applied.event.counts.usage!, oracle.reports('graph', true));
  for (const rec of state.nodes.values()) {
    expectUsageOf(rec.usage, oracle.reports(rec.no, false));
    expectUsageOf(rec.descendantUsage, oracle.reports(rec.no, true));
    const { childCount, descendantCount, backgroundAgentCount, blocked } = rec;
    expectEqual(
      { no: rec.no, childCount, descendantCount, backgroundAgentCount, blocked },
      {
        no: rec.no,
        ...oracle.expectedNode(rec.no),
      },
    );
  }
}

/**
 * The stored JSON of each version and event (what AppliedJsonEncoder, whose own property test
 * checks it gives the same bytes, writes): each version's presentation is the record's, and its
 * JSON is the jsonb read-back's; the event's JSON is what presenting a jsonb read-back of the
 * event gives; and the record and event rebuilt from it are the reducer's.
 */
function checkStoredJson(state: GraphState, applied: AppliedEvent): void {
  expect(applied.presented).toHaveLength(applied.versions.length);
  applied.versions.forEach((version, i) => {
    const json = storedNodeJson(state.graphId, version);
    expect(storedNodeJsonOf(applied.presented[i]!)).toBe(json);
    expect(json).toBe(storedNodeJson(state.graphId, inJsonbOrder(version)));
    expectEqual(nodeRecordFromJson(json, version.sortKey, version.createdSeq), version);
  });
  const e = applied.event;
  expect(storedCountsJson(e.counts)).toBe(JSON.stringify(e.counts));
  const json = storedEventJson(state.graphId, e);
  const read = { ...e, payload: inJsonbOrder(e.payload), changes: inJsonbOrder(e.changes) };
  expect(json).toBe(JSON.stringify(presentEvent(state.graphId, '', read)));
  const { seq, type, created, nodeNo, source, payload, changes } = e;
  expectEqual(listedEventFromJson({ seq, type, created, nodeNo }, json), {
    seq,
    type,
    created,
    nodeNo,
    source,
    payload,
    changes,
  });
}

function checkTreeOrder(state: GraphState, oracle: NaiveOracle): void {
  const recs = [...state.nodes.values()].sort((a, b) => (a.sortKey < b.sortKey ? -1 : 1));
  expectEqual(
    recs.map((r) => r.no),
    oracle.preOrder(),
  );
  for (const top of recs) {
    const upper = descendantsUpperBound(top.sortKey);
    const inRange = recs
      .filter((r) => r.sortKey > top.sortKey && r.sortKey < upper)
      .map((r) => r.no);
    expectEqual(
      inRange,
      oracle.preOrder().filter((no) => oracle.isDescendant(no, top.no)),
    );
  }
}

/**
 * docs/api-reference.md's bound on the versions one event writes: its node, that node's ancestors
 * (counts) and nodes that wait, before or after it (blocked).
 */
function expectRowsWithinBound(state: GraphState, applied: AppliedEvent, waitersBefore: number[]) {
  const waiters = new Set([...waitersBefore, ...state.openWaits.keys()]);
  const depth = state.nodes.get(applied.event.nodeNo)!.depth;
  expect(applied.versions.length).toBeLessThanOrEqual(1 + depth + waiters.size);
  expect(depth).toBeLessThanOrEqual(LIMITS.treeDepth);
  expect(state.openWaitCount).toBe(
    [...state.openWaits.values()].reduce((n, out) => n + out.size, 0),
  );
  expect(state.openWaitCount).toBeLessThanOrEqual(LIMITS.openWaits);
}

interface Failure {
  index: number;
  rejection: Rejection;
}

/** Runs one random history batch by batch, comparing ingest-time validation, reducer and oracle. */
function runHistory(steps: Step[]): void {
  let state = createGraphState(3);
  const oracle = new NaiveOracle();
  const generator = new EventGenerator();
  const refTable = new Map<string, RefStatus>();
  const tableView = { get: (ref: string) => refTable.get(ref) };
  const returned: { version: unknown; json: string }[] = [];
  let previous = new Map<number, PublicNodeBody>();

  const batches: Step[][] = [];
  for (const step of steps) {
    if (step.newBatch || batches.length === 0 || batches[batches.length - 1]!.length >= 5)
      batches.push([]);
    batches[batches.length - 1]!.push(step);
  }

  for (const batch of batches) {
    generator.resync(oracle);
    const generated: GeneratedEvent[] = batch.map((step) => generator.next(step));
    const raws = generated.map((g) => g.raw);
    const validation = validateBatch(tableView, raws, ANY_TIME);
    let failure: Failure | null = null;

    for (let index = 0; index < raws.length && !failure; index++) {
      const parsed = parseWatchEvent(raws[index]);
      if (!parsed.ok) {
        failure = { index, rejection: parsed.rejection };
        break;
      }
      const before = generated[index]!.invalid ? snapshotState(state) : null;
      const waitersBefore = [...state.openWaits.keys()];
      let applied: AppliedEvent;
      try {
        applied = applyEvent(state, parsed.event, state.lastSeq + 1);
      } catch (error) {
        if (!(error instanceof RejectedEventError)) throw error;
        failure = { index, rejection: error.rejection };
        if (before) expectEqual(snapshotState(state), before);
        break;
      }
      oracle.apply(parsed.event, applied.event.created);
      expectRowsWithinBound(state, applied, waitersBefore);
      expectEqual(applied.event.changes, expectedChanges(previous, state, applied.event.nodeNo));
      expectEqual(
        applied.versions,
        applied.event.changes.map((c) => state.nodes.get(decodeId('node', c.node_id)!.n)),
      );
      checkAgainstOracle(state, oracle, applied);
      checkStoredJson(state, applied);
      previous = new Map(
        [...state.nodes.values()].map((r) => [r.no, publicNodeBody(state.graphId, r)]),
      );
      for (const version of applied.versions)
        returned.push({ version, json: JSON.stringify(version) });
    }

    const firstInvalid = generated.findIndex((g) => g.invalid);
    expect(failure?.index ?? -1).toBe(firstInvalid);
    if (failure) {
      expectEqual(validation, { ok: false, index: failure.index, rejection: failure.rejection });
      const prefix = validateBatch(tableView, raws.slice(0, failure.index), ANY_TIME);
      if (!prefix.ok) throw new Error('the accepted prefix of a batch must validate');
      for (const [ref, v] of prefix.refs) refTable.set(ref, v);
    } else {
      if (!validation.ok)
        throw new Error(`validateBatch refused event ${validation.index} that applied`);
      for (const [ref, v] of validation.refs) refTable.set(ref, v);
    }
    if (batch[0]!.a % 7 === 0) {
      const rebuilt = graphStateFromRows(rowsOf(state));
      expectEqual(snapshotState(rebuilt), snapshotState(state));
      state = rebuilt;
    }
  }
  checkTreeOrder(state, oracle);
  for (const { version, json } of returned) expect(JSON.stringify(version)).toBe(json);
}

describe('reducer properties (random histories against a naive oracle)', () => {
  it('agrees with the oracle, the ingest-time validation and an independent diff after every event', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 60, size: 'max' }), (steps) =>
        runHistory(steps),
      ),
      { numRuns: 1_000 },
    );
  });
});
