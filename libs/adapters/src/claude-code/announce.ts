import type { AdapterOutput, Announcement } from '../adapter';
import { getOwn } from '../own-record';
import { cleanText } from '../text';
import { Emitter } from './emitter';
import { standInLine } from './line';
import { endAgent, linkSpawn } from './spawns';
import type { ClaudeCodeState, SessionMemo } from './state';
import { TEXT_MAX, toolLabel } from './tool-input';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The oldest spawn call of `session` not tied to an agent yet, preferably of `agentType`. */
function openSpawn(session: SessionMemo, agentType: string | undefined) {
  const open = Object.entries(session.spawns)
    .filter(([, memo]) => !memo.agentRef)
    .sort((a, b) => a[1].ts - b[1].ts);
  return open.find(([, memo]) => memo.agentType === agentType) ?? open[0];
}

const NOTIFICATION_REASONS: Record<string, 'permission' | 'question'> = {
  permission_prompt: 'permission',
  elicitation_dialog: 'question',
};

/** Raises attention once: a prompt both `PermissionRequest` and `Notification` tell is one. */
function ask(em: Emitter, ref: string, reason: 'permission' | 'question', message?: string): void {
  if (em.node(ref)?.attention) return;
  em.send('attention.raised', ref, {
    reason,
    ...(message ? { message: cleanText(message, TEXT_MAX) } : {}),
  });
}

/**
 * What a Claude Code hook tells ahead of the transcript. Only what a transcript shows late is
 * announced: an agent starting (`SubagentStart`, tied to the session's oldest open spawn call),
 * an agent ending (`SubagentStop`), a permission prompt or question (`PermissionRequest`,
 * `Notification`), a turn's
 * end (`Stop`). The creation keeps the transcript's key (`<ref>:spawned`); for the rest, the
 * state records what was sent, so the transcript's later copy adds nothing.
 */
export function announce(
  state: ClaudeCodeState,
  { payload, receivedAt }: Announcement,
): AdapterOutput {
  const out: AdapterOutput = { events: [], problems: [] };
  const sessionId = str(payload['session_id']);
  const event = str(payload['hook_event_name']);
  const session = sessionId ? getOwn(state.sessions, sessionId) : undefined;
  if (!sessionId || !event || !session || !getOwn(session.nodes, sessionId)) return out;
  const agentId = str(payload['agent_id']);
  const id = `${event}-${agentId ?? ''}-${receivedAt}`;
  const em = new Emitter(
    sessionId,
    session,
    standInLine(sessionId, `hook-${id}`, sessionId, receivedAt, session.version),
    receivedAt,
    out.events,
  );
  const actor = agentId ? (getOwn(session.agents, agentId) ?? sessionId) : sessionId;
  switch (event) {
    case 'SubagentStart': {
      if (!agentId || getOwn(session.agents, agentId)) break;
      const spawn = openSpawn(session, str(payload['agent_type']));
      if (spawn) linkSpawn(em, spawn[0], spawn[1], agentId, 'spawn_call_id', () => undefined);
      break;
    }
    case 'SubagentStop': {
      const ref = agentId ? getOwn(session.agents, agentId) : undefined;
      const last = str(payload['last_assistant_message']);
      if (ref) endAgent(em, ref, 'completed', last ? cleanText(last, TEXT_MAX) : undefined);
      break;
    }
    case 'Notification': {
      const reason = getOwn(NOTIFICATION_REASONS, str(payload['notification_type']) ?? '');
      if (reason) ask(em, actor, reason, str(payload['message']));
      break;
    }
    case 'PermissionRequest': {
      const tool = str(payload['tool_name']) ?? 'a tool';
      const input = payload['tool_input'];
      const obj =
        typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
      ask(em, actor, 'permission', `Asks to use ${toolLabel(tool, obj)}`);
      break;
    }
    case 'Stop': {
      const node = em.node(sessionId);
      if (node && node.state !== 'idle')
        em.send('status', sessionId, {
          state: 'idle',
          ...(node.lastText ? { summary: node.lastText } : {}),
        });
      break;
    }
    default:
      break;
  }
  return out;
}
