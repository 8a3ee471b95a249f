import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeCodeAdapter, codexAdapter } from '@graph-history/adapters';
import type { TokenCounts } from '@graph-history/domain';
import { codexFacts, rolloutFiles, rootOf } from './support/codex-facts';
import { FIXTURES, fixtureLines, listPaths } from './support/fixture-lines';
import { ZERO, convert, ingest, nonZero, plus, tokensOf } from './support/token-sums';

/**
 * Usage from the providers' own records (issue 31): per session and per sub-agent, the totals the
 * graph holds equal sums computed here from the raw files, without the adapters: Claude Code
 * counts each message once (its lines repeat the message's `usage`), Codex the differences of its
 * cumulative `token_count` totals. Gemini CLI, opencode and Cursor: usage-providers.spec.ts.
 */
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sorted = (list: TokenCounts[]) => list.map((t) => JSON.stringify(t)).sort();

/** Each distinct message's usage (first line of the message), by file, with its sidechain flag. */
function claudeMessages(
  dir: string,
  file: string,
): Array<{ sidechain: boolean; tokens: TokenCounts }> {
  const seen = new Set<string>();
  const out: Array<{ sidechain: boolean; tokens: TokenCounts }> = [];
  for (const text of readFileSync(join(dir, file), 'utf8').split('\n')) {
    if (!text.trim()) continue;
    const line = JSON.parse(text) as Obj;
    const m = line.message as Obj | undefined;
    if (line.type !== 'assistant' || !m?.usage || !m.model) continue;
    const id = m.id ?? line.requestId ?? line.uuid;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({
      sidechain: line.isSidechain === true,
      tokens: {
        input_tokens: m.usage.input_tokens ?? 0,
        cache_read_tokens: m.usage.cache_read_input_tokens ?? 0,
        cache_creation_tokens: m.usage.cache_creation_input_tokens ?? 0,
        output_tokens: m.usage.output_tokens ?? 0,
      },
    });
  }
  return out;
}

const sum = (list: Array<{ tokens: TokenCounts }>) =>
  list.reduce((t, m) => plus(t, m.tokens), ZERO);

describe.each(['v2-subagent-files', 'v2-prefix-general-purpose', 'v1-inline-sidechains'])(
  'Claude Code usage, %s',
  (name) => {
    const dir = join(FIXTURES, name);
    const paths = listPaths(dir).filter((p) => p.endsWith('.jsonl'));
    const sessionFile = paths.find((p) => !p.includes('/'))!;
    const sessionRef = sessionFile.replace(/\.jsonl$/, '');
    const lines = fixtureLines(claudeCodeAdapter, dir);
    const events = convert(claudeCodeAdapter, lines);
    const state = ingest(events);
    const nodes = [...state.nodes.values()];
    const session = nodes.find((n) => n.ref === sessionRef)!;
    const agents = nodes.filter((n) => n.kind === 'agent');
    const own = claudeMessages(dir, sessionFile);
    // compaction runs (agent-acompact-*) are not sub-agents: the adapter reads no usage of them
    const agentFiles = paths.filter((p) => p !== sessionFile && !p.includes('agent-acompact'));

    it('holds usage, one report per message', () => {
      const reports = events.filter((e) => e.type === 'usage.reported');
      expect(reports.length).toBeGreaterThan(0);
      expect(new Set(reports.map((e) => e.key)).size).toBe(reports.length);
    });

    it("gives the session its own messages' tokens, each message once", () => {
      expect(tokensOf(session.usage)).toEqual(sum(own.filter((m) => !m.sidechain)));
    });

    it('gives each sub-agent the tokens of its own messages', () => {
      const expected = agentFiles.length
        ? agentFiles.map((f) => sum(claudeMessages(dir, f)))
        : [sum(own.filter((m) => m.sidechain))];
      const got = agentFiles.length
        ? agents.map((a) => tokensOf(a.usage))
        : [agents.reduce((t, a) => plus(t, tokensOf(a.usage)), ZERO)];
      expect(sorted(got.filter(nonZero))).toEqual(sorted(expected.filter(nonZero)));
    });

    it('rolls the tree up: the session subtree and the graph total are the sum of every node', () => {
      const all = nodes.reduce((t, n) => plus(t, tokensOf(n.usage)), ZERO);
      expect(tokensOf(session.descendantUsage)).toEqual(all);
      expect(tokensOf(state.counts.usage!)).toEqual(all);
      expect(session.descendantUsage!.by_model).not.toEqual({});
    });

    it('counts the files read again (a restart from the start) once', () => {
      const again = ingest([...events, ...convert(claudeCodeAdapter, lines)]);
      expect(tokensOf(again.counts.usage!)).toEqual(tokensOf(state.counts.usage!));
    });
  },
);

describe('Codex usage', () => {
  const facts = codexFacts();
  const events = convert(
    codexAdapter,
    rolloutFiles().flatMap((f) => f.lines),
  );
  const state = ingest(events);
  const refOf = (id: string) => {
    const root = rootOf(facts, id);
    return root === id ? id : `${root}/${id}`;
  };

  /** The thread's own tokens: the growth of its cumulative totals past what a fork copied. */
  function expected(id: string): TokenCounts {
    const f = facts.get(id)!;
    const totals = f.lines
      .map((l, i) => ({
        i: i + 1,
        info: l.payload['info'] as Obj | null | undefined,
        type: l.payload['type'],
      }))
      .filter((l) => l.type === 'token_count' && l.info)
      .map((l) => ({ i: l.i, t: l.info!.total_token_usage as Obj }));
    const copied = totals.filter((l) => f.copyEnd !== undefined && l.i < f.copyEnd);
    const last = totals[totals.length - 1]?.t;
    if (!last) return ZERO;
    const base = copied[copied.length - 1]?.t ?? {
      input_tokens: 0,
      cached_input_tokens: 0,
      output_tokens: 0,
    };
    const cached = last.cached_input_tokens - base.cached_input_tokens;
    return {
      input_tokens: last.input_tokens - base.input_tokens - cached,
      cache_read_tokens: cached,
      cache_creation_tokens: 0,
      output_tokens: last.output_tokens - base.output_tokens,
    };
  }

  it('reports the differences of token_count totals, per thread, also after a sub-agent ended', () => {
    const withTokens = [...facts.keys()].filter((id) => nonZero(expected(id)));
    expect(withTokens.length).toBeGreaterThanOrEqual(4);
    for (const id of facts.keys()) {
      const no = state.byRef.get(refOf(id))!;
      expect([id, tokensOf(state.nodes.get(no)!.usage)]).toEqual([id, expected(id)]);
    }
  });

  it('names the model of the turn, and prices it', () => {
    const session = state.nodes.get(
      state.byRef.get(refOf([...facts.values()].find((f) => f.file.includes('a001'))!.id))!,
    )!;
    expect(Object.keys(session.usage!.by_model)).toEqual(['gpt-5.3-codex']);
    expect(session.usage!.cost_usd).toBeGreaterThan(0);
  });
});
