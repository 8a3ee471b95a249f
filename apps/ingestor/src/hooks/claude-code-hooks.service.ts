import { Injectable } from '@nestjs/common';
import {
  answeredKeyPrefix,
  askKeyPrefix,
  claudeCodeHookEvents,
  hookNode,
  type HookView,
  keyTime,
  transcriptKeyRule,
} from '@graph-history/adapters';
import { HookKeyRepository } from '@graph-history/db';
import type { Principal } from '@graph-history/http';
import { checkWriter, IngestService, type SentBody } from '../ingest/ingest.service';
import { invalidHookBody, unusableHook } from './hook-errors';

type Obj = Record<string, unknown>;

/** What the hook endpoint did with a payload (it answers 204; tests and logs read this). */
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

  private async view(accountId: number, graphKey: string, payload: Obj): Promise<HookView> {
    const sessionId = payload['session_id'];
    const node = hookNode(payload);
    if (typeof sessionId !== 'string' || node === undefined) return { transcriptFeeds: false };
    const facts = await this.keys.facts(
      accountId,
      graphKey,
      transcriptKeyRule(sessionId),
      askKeyPrefix(node),
      answeredKeyPrefix(node),
    );
    const ask = facts.newestAsk === null ? undefined : keyTime(facts.newestAsk);
    const answered = facts.newestAnswered === null ? undefined : keyTime(facts.newestAnswered);
    const open = ask !== undefined && (answered === undefined || answered < ask);
    return { transcriptFeeds: facts.transcriptFeeds, ...(open ? { openAskAt: ask } : {}) };
  }
}
