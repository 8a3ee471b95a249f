import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type SourceLine, claudeCodeAdapter } from '@graph-history/adapters';
import type { WatchEvent } from '@graph-history/domain';
import { WatchRunner } from '@graph-history/cli/watch/watch-runner';
import { appendOrder, interleavedSessions } from './support/interleaved-sessions';
import { LiveStack, watchGraphKey } from './support/live-stack';

/**
 * One timeline per graph: two sessions of one project whose lines interleave in time are sent in
 * the order of their own timestamps, so every time the read API shows is the transcript's own
 * (ingest would raise an event dated before the previous one).
 */
describe('watch sends a graph in the order of its transcripts’ own times', () => {
  const { lines, expected, starts } = interleavedSessions();
  const suite = LiveStack.forSuite('watch-timeline');

  const options = (project: string, once: boolean) =>
    suite.stack.watchOptions(suite.tmp, project, { once, windowMs: 1_000 });

  const write = (project: string, part: readonly SourceLine[]) => {
    for (const line of part) {
      const path = join(suite.tmp, 'projects', project, line.file.path);
      mkdirSync(dirname(path), { recursive: true });
      appendFileSync(path, `${line.text}\n`);
    }
  };

  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (m: string) => void warnings.push(m) };

  async function expectTranscriptTimes(graph: string): Promise<void> {
    const events = await suite.stack.until('every event to be readable', async () => {
      const all = await suite.stack.events(graph);
      return all.length === expected.length ? all : undefined;
    });
    const nodes = await suite.stack.nodes(graph);
    const refOf = new Map(nodes.map((n) => [n.id, n.provider_ref]));
    const seen = (e: { type: string; created: number }, ref: string) =>
      `${ref} ${e.type} ${new Date(e.created).toISOString()}`;
    expect(events.map((e) => seen(e, refOf.get(e.node_id)!)).sort()).toEqual(
      expected.map((e) => seen(e, e.node)).sort(),
    );
    const byRef = new Map<string, WatchEvent[]>();
    for (const e of expected) byRef.set(e.node, [...(byRef.get(e.node) ?? []), e]);
    expect(nodes).toHaveLength(byRef.size);
    for (const node of nodes) {
      const own = byRef.get(node.provider_ref)!;
      expect({
        ref: node.provider_ref,
        created: node.created,
        last_event: node.last_event,
      }).toEqual({
        ref: node.provider_ref,
        created: own[0]!.created,
        last_event: Math.max(...own.map((e) => e.created)),
      });
      if (node.kind === 'session') expect(node.created).toBe(starts.get(node.provider_ref));
    }
    expect(nodes.filter((n) => n.kind === 'session')).toHaveLength(2);
    expect(nodes.filter((n) => n.kind === 'agent')).toHaveLength(4);
  }

  it('--once merges the sessions’ files by time', async () => {
    write('-once', lines);
    const totals = await new WatchRunner(claudeCodeAdapter, options('-once', true), log).run(
      new AbortController().signal,
    );
    const graph = await watchGraphKey(suite.tmp, '-once');
    expect(totals.get(graph)).toMatchObject({ sent: expected.length, duplicates: 0, skipped: 0 });
    await expectTranscriptTimes(graph);
    expect(warnings).toEqual([]);
  }, 120_000);

  it('a live tail holds lines in its reorder window and sends them in time order', async () => {
    const controller = new AbortController();
    const running = new WatchRunner(claudeCodeAdapter, options('-live', false), log).run(
      controller.signal,
    );
    try {
      const ordered = appendOrder(lines);
      for (let i = 0; i < ordered.length; i += 250) {
        const slice = ordered.slice(i, i + 250);
        // Within a slice the later-starting session is written first: only the window sorts it.
        const copyFirst = [...slice].sort(
          (a, b) =>
            Number(a.file.id.startsWith('fa812bfe')) - Number(b.file.id.startsWith('fa812bfe')),
        );
        write('-live', copyFirst);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      await expectTranscriptTimes(await watchGraphKey(suite.tmp, '-live'));
    } finally {
      controller.abort();
    }
    const totals = (await running).get(await watchGraphKey(suite.tmp, '-live'))!;
    expect(totals).toMatchObject({ duplicates: 0, skipped: 0 });
    expect(warnings).toEqual([]);
  }, 120_000);
});
