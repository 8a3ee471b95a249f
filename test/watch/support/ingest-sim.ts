import {
  type WatchEvent,
  applyEvent,
  createGraphState,
  type GraphState,
  stateRefView,
  validateBatch,
} from '@graph-history/domain';
import {
  answeredKeyPrefix,
  askKeyPrefix,
  claudeCodeHookEvents,
  hookNode,
  keyTime,
  transcriptKeyRule,
} from '@graph-history/adapters';

/**
 * A naive in-memory ingest endpoint (the oracle of the hook tests): a re-sent key is a
 * duplicate, a batch is validated in order against what is stored, and a refused event is
 * dropped and the rest sent again (what `watch`'s EventSender and the hook endpoint both do).
 */
export class IngestSim {
  readonly state: GraphState = createGraphState(1);
  readonly stored: WatchEvent[] = [];
  private readonly keys = new Set<string>();
  private seq = 0;

  store(events: readonly WatchEvent[]): { accepted: number; duplicates: number; dropped: number } {
    let pending = events.filter((e) => !this.keys.has(e.key));
    const duplicates = events.length - pending.length;
    let dropped = 0;
    for (;;) {
      if (pending.length === 0) return { accepted: 0, duplicates, dropped };
      const verdict = validateBatch(stateRefView(this.state), [...pending], Date.now());
      if (verdict.ok) break;
      pending = pending.filter((_, i) => i !== verdict.index);
      dropped += 1;
    }
    for (const ev of pending) {
      this.keys.add(ev.key);
      this.stored.push(ev);
      applyEvent(this.state, ev, ++this.seq);
    }
    return { accepted: pending.length, duplicates, dropped };
  }

  /** What the ingestor does with one posted hook payload. */
  hook(payload: Record<string, unknown>, receivedAt: number) {
    const node = hookNode(payload);
    const session = typeof payload['session_id'] === 'string' ? payload['session_id'] : '';
    const rule = transcriptKeyRule(session);
    const out = claudeCodeHookEvents(payload, receivedAt, {
      transcriptFeeds: [...this.keys].some(
        (k) =>
          k.startsWith(rule.prefix) &&
          !rule.exceptPrefixes.some((p) => k.startsWith(p)) &&
          !rule.exceptKeys.includes(k),
      ),
      ...(node ? this.openAsk(node) : {}),
    });
    if (out.problem) throw new Error(out.problem.message);
    return this.store(out.events);
  }

  private openAsk(node: string): { openAskAt?: number } {
    const newest = (prefix: string) =>
      [...this.keys]
        .filter((k) => k.startsWith(prefix))
        .sort()
        .pop();
    const ask = newest(askKeyPrefix(node));
    const answered = newest(answeredKeyPrefix(node));
    if (!ask) return {};
    return !answered || keyTime(answered) < keyTime(ask) ? { openAskAt: keyTime(ask) } : {};
  }
}
