import { Injectable } from '@nestjs/common';
import {
  answeredKeyPrefix,
  askKeyPrefix,
  claudeCodeHookEvents,
  hookNode,
  type HookView,
  hookViewNeeds,
  keyTime,
  transcriptKeyRule,
} from '@graph-history/adapters';
import { HookKeyRepository } from '@graph-history/db';
import type { Principal } from '@graph-history/http';
import { checkWriter, IngestService, type SentBody } from '../ingest/ingest.service';
import { invalidHookBody, unusableHook } from './hook-errors';

type Obj = Record<string, unknown>;

/** Sessions known to be fed by a transcript, kept per process (the set starts over when full). */
const FED_SESSIONS_KEPT = 100_000;

/** What was done with a payload (the endpoint answers 204 without it). */
export interface HookResult {
  accepted: number;
  duplicates: number;
  dropped: number;
}

/**
 * One Claude Code hook payload posted by Claude Code itself, turned into WatchEvents by the
 * adapters' `claudeCodeHookEvents` (the keys the transcript path gives the same facts) and stored
 * through the events endpoint's own path: same key check, ingest limits, quotas and envelope.
 * What the events depend on (does a transcript feed the session; is an attention the hooks
 * raised still open) is read from the graph's stored keys first.
 */
@Injectable()
export class ClaudeCodeHooksService {
  private readonly fedSessions = new Set<string>();

  constructor(
    private readonly ingest: IngestService,
    private readonly keys: HookKeyRepository,
  ) {}

  async receive(
    principal: Principal,
    graphKey: string,
    body: unknown,
    sent: SentBody,
    receivedAt = Date.now(),
  ): Promise<HookResult> {
    checkWriter(principal, graphKey);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidHookBody();
    const payload = body as Obj;
    const view = await this.view(principal.accountId, graphKey, payload);
    const { events, problem } = claudeCodeHookEvents(payload, receivedAt, view);
    if (problem) throw unusableHook(problem.param, problem.message);
    const stored = await this.ingest.storeEvents(principal, graphKey, events, sent, true);
    return { accepted: stored.accepted, duplicates: stored.duplicates, dropped: stored.dropped };
  }

  /** Reads only what the hook's events depend on (hookViewNeeds). */
  private async view(accountId: number, graphKey: string, payload: Obj): Promise<HookView> {
    const sessionId = payload['session_id'];
    const node = hookNode(payload);
    if (typeof sessionId !== 'string' || node === undefined) return { transcriptFeeds: false };
    const needs = hookViewNeeds(payload);
    const [feeds, open] = await Promise.all([
      needs.transcriptFeeds ? this.feeds(accountId, graphKey, sessionId) : false,
      needs.openAsk ? this.openAsk(accountId, graphKey, node) : undefined,
    ]);
    return { transcriptFeeds: feeds, ...(open !== undefined ? { openAskAt: open } : {}) };
  }

  /** Once a transcript feeds a session it always does: that answer is kept (per process). */
  private async feeds(accountId: number, graphKey: string, sessionId: string): Promise<boolean> {
    const id = `${accountId}/${graphKey}/${sessionId}`;
    if (this.fedSessions.has(id)) return true;
    const fed = await this.keys.transcriptFeeds(accountId, graphKey, transcriptKeyRule(sessionId));
    if (fed) {
      if (this.fedSessions.size >= FED_SESSIONS_KEPT) this.fedSessions.clear();
      this.fedSessions.add(id);
    }
    return fed;
  }

  private async openAsk(
    accountId: number,
    graphKey: string,
    node: string,
  ): Promise<number | undefined> {
    const [ask, answered] = await this.keys.newestOf(accountId, graphKey, [
      askKeyPrefix(node),
      answeredKeyPrefix(node),
    ]);
    if (ask === null) return undefined;
    return answered === null || keyTime(answered) < keyTime(ask) ? keyTime(ask) : undefined;
  }
}
