import { getOwn } from '../own-record';
import { cleanText, firstLine } from '../text';
import type { Emitter } from './emitter';
import type { Fact } from './line';
import { forgetOpenCalls } from './open-calls';
import { type OnLinked, linkSpawn, notifiedEnd } from './spawns';
import { LABEL_MAX } from './tool-input';
import { inboxMessage, receiveMessage } from './teams';
import { teammateJoined } from './team-members';
import { toolResult, toolUse, waitingForTask } from './tool-facts';
import { turnStartKey } from './fact-keys';

const TITLE_MAX = 200;

/** Assistant output: the node is busy again and whatever needed attention was dealt with. */
function working(em: Emitter, ref: string): void {
  const node = em.node(ref);
  if (!node) return;
  if (node.attention) em.send('attention.cleared', ref, {});
  if (node.kind === 'session' && node.state !== 'working')
    em.send('status', ref, { state: 'working' });
}

function idle(em: Emitter, ref: string, summary: string | undefined): void {
  const node = em.node(ref);
  if (!node || node.kind !== 'session' || node.state === 'idle') return;
  em.send('status', ref, summary === undefined ? { state: 'idle' } : { state: 'idle', summary });
  forgetOpenCalls(em.session, ref, true);
}

function prompt(em: Emitter, ref: string, text: string): void {
  const node = em.node(ref);
  if (!node || node.kind !== 'session') return;
  if (!em.session.titled) {
    em.session.titled = em.send('title', ref, { title: cleanText(text, TITLE_MAX) });
  }
  if (node.attention) em.send('attention.cleared', ref, {});
  const promptId = em.line.promptId;
  em.send(
    'status',
    ref,
    { state: 'working', summary: text },
    promptId ? turnStartKey(ref, promptId) : undefined,
  );
}

/** Applies the facts of one line to node `ref` (the session, or the agent the line belongs to). */
export function applyFacts(
  em: Emitter,
  ref: string,
  facts: readonly Fact[],
  onLinked: OnLinked,
): void {
  for (const fact of facts) {
    switch (fact.kind) {
      case 'prompt':
        prompt(em, ref, fact.text);
        break;
      case 'interrupt':
        idle(em, ref, 'Interrupted by the user.');
        break;
      case 'notification':
        notifiedEnd(em, fact);
        if (!fact.queued) working(em, ref);
        break;
      case 'text': {
        working(em, ref);
        const node = em.node(ref);
        if (node) node.lastText = fact.text;
        em.activity(ref, firstLine(fact.text, LABEL_MAX));
        break;
      }
      case 'tool_use':
        working(em, ref);
        toolUse(em, ref, fact);
        break;
      case 'tool_result':
        toolResult(em, ref, fact, onLinked);
        break;
      case 'api_error':
        em.send('attention.raised', ref, { reason: 'error', message: fact.message });
        break;
      case 'turn_end':
        idle(em, ref, em.node(ref)?.lastText);
        break;
      case 'agent_link': {
        const memo = getOwn(em.session.spawns, fact.toolUseId);
        if (memo) linkSpawn(em, fact.toolUseId, memo, fact.agentId, 'spawn_call_id', onLinked);
        break;
      }
      case 'waiting_for_task':
        waitingForTask(em, ref, fact.toolUseId, fact.description);
        break;
      case 'alive':
        em.activity(ref);
        break;
      case 'teammate_message':
        receiveMessage(em, ref, fact);
        break;
      case 'teammate_joined':
        teammateJoined(em, fact, onLinked);
        break;
      case 'inbox_message':
        inboxMessage(em, fact);
        break;
      case 'compacted':
        em.activity(ref, 'Conversation compacted');
        break;
      case 'usage':
        em.usage(ref, fact);
        break;
      case 'root_prompt':
        break;
    }
  }
}
