import {
  type SourceLine,
  cursorAdapter,
  geminiAdapter,
  opencodeAdapter,
} from '@graph-history/adapters';
import type { GraphState, WatchEvent } from '@graph-history/domain';
import fc from 'fast-check';
import { cursorFacts, transcriptFiles } from './support/cursor-facts';
import {
  GEMINI_RECORDED_FIXTURES,
  chatFiles,
  chatLines,
  geminiFacts,
} from './support/gemini-facts';
import { expectValidStream, nodeOf } from './support/graph-replay';
import { type OpencodeRows, opencodeRows, rootOf, rowFiles } from './support/opencode-fixture';
import {
  completedReply,
  geminiMessages,
  geminiSum,
  opencodeMessages,
  opencodeSum,
  opencodeTokens,
} from './support/usage-oracles';
import {
  type Converter,
  ZERO,
  convert,
  ingest,
  nonZero,
  plus,
  tokensOf,
} from './support/token-sums';

/**
 * Usage from Gemini CLI's and opencode's own records (issue 31), and none from Cursor's: per
 * session and per sub-agent, the totals the graph holds equal sums over unique messages computed
 * here from the raw fixture files (hand-made after each provider's source; for Gemini CLI also
 * files written by its own recorder; see their READMEs), without the adapters.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Converts chunk after chunk with one state, its JSON copy kept between them as `watch` does. */
function chunked<S>(adapter: Converter<S>, chunks: SourceLine[][], state = adapter.initialState()) {
  const events: WatchEvent[] = [];
  for (const chunk of chunks) {
    events.push(...adapter.toEvents(state, chunk).events);
    Object.assign(state as object, JSON.parse(JSON.stringify(state)));
  }
  return { state, events };
}

/** Splits each file at its cut and hands the prefixes over in bites, in the order drawn. */
function bites(files: SourceLine[][], cuts: number[], order: number[]) {
  const queues = files.map((f, i) => f.slice(0, cuts[i]));
  const chunks: SourceLine[][] = [];
  for (const pick of order) {
    const q = queues[pick]!;
    if (q.length > 0) chunks.push(q.splice(0, Math.ceil(q.length / 2)));
  }
  chunks.push(queues.flat());
  return { chunks, rest: files.flatMap((f, i) => f.slice(cuts[i])) };
}

const usageOf = (state: GraphState, ref: string) => tokensOf(nodeOf(state, ref).usage);
const modelsOf = (state: GraphState, ref: string) =>
  Object.keys(nodeOf(state, ref).usage?.by_model ?? {}).sort();

// ---- Gemini CLI ---------------------------------------------------------------------------

/** The records of a file's lines. */
const recordsOf = (lines: SourceLine[]) => lines.map((l) => JSON.parse(l.text) as Json);

describe('Gemini CLI usage', () => {
  const facts = geminiFacts();
  const refOf = (id: string) => {
    const f = facts.get(id)!;
    return f.kind === 'main' ? id : `${f.sessionId}/${id}`;
  };
  /** The chat id of a file of lines (its header's session id). */
  const chatOf = (file: SourceLine[]) => JSON.parse(file[0]!.text).sessionId as string;
  const projects = [...new Set([...facts.values()].map((f) => f.project))];
  const files = projects.flatMap((p) => chatFiles(p));
  const events = convert(
    geminiAdapter,
    projects.flatMap((p) => chatLines(p)),
  );
  const state = ingest(events);

  it('gives each session and sub-agent the tokens of its unique messages, with their models', () => {
    let withTokens = 0;
    for (const file of files) {
      const id = chatOf(file);
      const messages = geminiMessages(recordsOf(file));
      const expected = geminiSum(messages);
      if (nonZero(expected)) withTokens += 1;
      expect([id, usageOf(state, refOf(id))]).toEqual([id, expected]);
      const models = [...new Set([...messages.values()].map((m) => m.model as string))].sort();
      expect([id, modelsOf(state, refOf(id))]).toEqual([id, models]);
    }
    expect(withTokens).toBe(files.length);
  });

  it('reports each message once, keyed by its chat and message id', () => {
    const reports = events.filter((e) => e.type === 'usage.reported');
    const unique = files.reduce((n, f) => n + geminiMessages(recordsOf(f)).size, 0);
    expect(reports).toHaveLength(unique);
    expect(new Set(reports.map((e) => e.key)).size).toBe(unique);
    // a message re-written with its tokens, and again in a checkpoint: one report
    const g3 = reports.filter((e) => (e.payload as { message_id?: string }).message_id === 'g3');
    expect(g3).toHaveLength(1);
  });

  it('rolls a session up over its sub-agents, at any depth', () => {
    for (const session of [...facts.values()].filter((f) => f.kind === 'main')) {
      const chats = files.filter((f) => facts.get(chatOf(f))!.sessionId === session.id);
      const expected = chats.reduce(
        (t, f) => plus(t, geminiSum(geminiMessages(recordsOf(f)))),
        ZERO,
      );
      expect(tokensOf(nodeOf(state, session.id).descendantUsage)).toEqual(expected);
    }
  });

  it('counts the chats read again (a restart from the start) once', () => {
    const again = ingest([...events, ...convert(geminiAdapter, files.flat())]);
    expect(tokensOf(again.counts.usage)).toEqual(tokensOf(state.counts.usage));
  });

  it("on chats written by gemini-cli-core's own recorder: each chat's unique messages, once", () => {
    const recorded = chatFiles('checkout', GEMINI_RECORDED_FIXTURES);
    const out = convert(geminiAdapter, recorded.flat());
    const graph = ingest(out);
    const reports = out.filter((e) => e.type === 'usage.reported');
    expect(reports).toHaveLength(
      recorded.reduce((n, f) => n + geminiMessages(recordsOf(f)).size, 0),
    );
    for (const file of recorded) {
      const header = JSON.parse(file[0]!.text) as Json;
      // a sub-agent's ref is its file's id, `<session id>/<agent id>`
      const ref = header.kind === 'main' ? header.sessionId : file[0]!.file.id;
      const messages = geminiMessages(recordsOf(file));
      expect(nonZero(geminiSum(messages))).toBe(true);
      expect([ref, usageOf(graph, ref)]).toEqual([ref, geminiSum(messages)]);
      const models = [...new Set([...messages.values()].map((m) => m.model as string))].sort();
      expect([ref, modelsOf(graph, ref)]).toEqual([ref, models]);
    }
  });

  it('property: any prefix of each chat, in any order, holds the prefix sums; the rest completes them', () => {
    const shop = chatFiles('shop');
    fc.assert(
      fc.property(
        fc.tuple(...shop.map((f) => fc.integer({ min: 0, max: f.length }))),
        fc.array(fc.nat({ max: shop.length - 1 }), { minLength: shop.length, maxLength: 12 }),
        (cuts, order) => {
          const { chunks, rest } = bites(shop, cuts, order);
          const first = chunked(geminiAdapter, chunks);
          expectValidStream(first.events);
          const partial = ingest(first.events);
          shop.forEach((file, i) => {
            const ref = refOf(chatOf(file));
            if (!partial.byRef.has(ref)) return; // a sub-agent whose session is not read yet
            expect([ref, usageOf(partial, ref)]).toEqual([
              ref,
              geminiSum(geminiMessages(recordsOf(file.slice(0, cuts[i])))),
            ]);
          });
          const more = chunked(geminiAdapter, [rest], first.state).events;
          const all = [...first.events, ...more, ...geminiAdapter.flush(first.state).events];
          expect(tokensOf(ingest(all).counts.usage)).toEqual(
            tokensOf(ingest(convert(geminiAdapter, shop.flat())).counts.usage),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});

// ---- opencode -----------------------------------------------------------------------------

/** The message rows among row lines. */
const messageRows = (lines: SourceLine[]) =>
  recordsOf(lines)
    .filter((l) => l.table === 'message')
    .map((l) => l.row as Json);

/**
 * The rows as opencode writes them while a reply streams: each assistant message first without
 * `time.completed` and with the tokens of its first steps, then its final row.
 */
function streamingRows(rows: OpencodeRows): OpencodeRows {
  const messages = rows.messages.flatMap((m) => {
    const data = m.data as Json;
    if (data.role !== 'assistant') return [m];
    const t = data.tokens as Json;
    const half = (n: number) => Math.floor(n / 2);
    const streaming = {
      ...m,
      time_updated: m.time_created as number,
      data: {
        ...data,
        time: { created: data.time.created },
        tokens: { ...t, output: half(t.output), cache: { read: t.cache.read, write: 0 } },
      },
    };
    return [streaming, m];
  });
  return { ...rows, messages };
}

describe('opencode usage', () => {
  const rows = streamingRows(opencodeRows());
  const files = rowFiles(rows);
  const refOf = (id: string) => (rootOf(rows, id) === id ? id : `${rootOf(rows, id)}/${id}`);
  const events = convert(opencodeAdapter, files.flat());
  const state = ingest(events);
  const lines = files.flat();

  it("gives each session and sub-agent its completed messages' final tokens, with their models", () => {
    expect(rows.messages.length).toBeGreaterThan(opencodeRows().messages.length);
    let withTokens = 0;
    for (const s of rows.sessions) {
      const messages = opencodeMessages(messageRows(lines), s.id);
      const expected = opencodeSum(messages);
      if (nonZero(expected)) withTokens += 1;
      expect([s.id, usageOf(state, refOf(s.id))]).toEqual([s.id, expected]);
      const models = [...messages.values()]
        .filter((m) => nonZero(opencodeTokens(m.tokens)))
        .map((m) => m.modelID as string);
      expect([s.id, modelsOf(state, refOf(s.id))]).toEqual([s.id, [...new Set(models)].sort()]);
    }
    expect(withTokens).toBe(2);
  });

  it('reports each message with tokens once, when it completes, keyed by its id', () => {
    const reports = events.filter((e) => e.type === 'usage.reported');
    const withTokens = opencodeRows().messages.filter(
      (m) => completedReply(m.data) && nonZero(opencodeTokens((m.data as Json).tokens)),
    );
    expect(reports.map((e) => e.key).sort()).toEqual(withTokens.map((m) => `${m.id}:usage`).sort());
    for (const r of reports) {
      const m = withTokens.find((x) => `${x.id}:usage` === r.key)!;
      expect(r.created).toBe((m.data as Json).time.completed);
    }
  });

  it('rolls a session up over its sub-agent sessions', () => {
    for (const s of rows.sessions.filter((x) => !x.parent_id)) {
      const tree = rows.sessions.filter((x) => rootOf(rows, x.id) === s.id);
      const expected = tree.reduce(
        (t, x) => plus(t, opencodeSum(opencodeMessages(messageRows(lines), x.id))),
        ZERO,
      );
      expect(tokensOf(nodeOf(state, s.id).descendantUsage)).toEqual(expected);
    }
  });

  it('counts rows copied again (a restart, a row updated after it completed) once', () => {
    const touched = files.flat().map((l) => {
      const { table, row } = JSON.parse(l.text) as Json;
      return {
        ...l,
        lineNo: l.lineNo + 1000,
        text: JSON.stringify({ table, row: { ...row, time_updated: row.time_updated + 1 } }),
      };
    });
    const again = ingest([...events, ...convert(opencodeAdapter, [...files.flat(), ...touched])]);
    expect(tokensOf(again.counts.usage)).toEqual(tokensOf(state.counts.usage));
    expect(convert(opencodeAdapter, [...files.flat(), ...touched]).map((e) => e.key)).toEqual(
      events.map((e) => e.key),
    );
  });

  it('property: any prefix of each session’s rows, in any order, holds the prefix sums; the rest completes them', () => {
    fc.assert(
      fc.property(
        fc.tuple(...files.map((f) => fc.integer({ min: 0, max: f.length }))),
        fc.array(fc.nat({ max: files.length - 1 }), { minLength: files.length, maxLength: 12 }),
        (cuts, order) => {
          const { chunks, rest } = bites(files, cuts, order);
          const first = chunked(opencodeAdapter, chunks);
          expectValidStream(first.events);
          const partial = ingest(first.events);
          files.forEach((file, i) => {
            const session = file[0]!.file.id;
            const ref = refOf(session);
            if (!partial.byRef.has(ref)) return; // a sub-agent whose parent is not read yet
            expect([ref, usageOf(partial, ref)]).toEqual([
              ref,
              opencodeSum(opencodeMessages(messageRows(file.slice(0, cuts[i])), session)),
            ]);
          });
          const more = chunked(opencodeAdapter, [rest], first.state).events;
          const all = [...first.events, ...more, ...opencodeAdapter.flush(first.state).events];
          expect(tokensOf(ingest(all).counts.usage)).toEqual(tokensOf(state.counts.usage));
        },
      ),
      { numRuns: 60 },
    );
  });
});

// ---- Cursor -------------------------------------------------------------------------------

describe('Cursor usage', () => {
  const T0 = Date.UTC(2026, 2, 2, 10, 0, 0);
  const files = transcriptFiles(() => ({ born: T0, modified: T0 + 60_000 }));

  it('reports none: its transcripts carry no token counts and no model', () => {
    expect(cursorFacts().size).toBeGreaterThan(1);
    const keys = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (typeof v === 'object' && v !== null) {
        for (const [k, x] of Object.entries(v)) {
          keys.add(k);
          walk(x);
        }
      }
    };
    for (const l of files.flat()) walk(JSON.parse(l.text));
    for (const k of ['usage', 'tokens', 'model', 'input_tokens'])
      expect([k, keys.has(k)]).toEqual([k, false]);
    const events = convert(cursorAdapter, files.flat());
    expect(events.length).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === 'usage.reported')).toEqual([]);
    expect(tokensOf(ingest(events).counts.usage)).toEqual(ZERO);
  });
});
