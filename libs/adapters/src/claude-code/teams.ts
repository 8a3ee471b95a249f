import { createHash } from 'node:crypto';
import { getOwn, setOwn } from '../own-record';
import type { Emitter } from './emitter';
import type { TeammateMessageFact, ToolOp } from './line';

/** Messages remembered per session to recognise the inbox copy of a message already sent. */
const MESSAGES_KEPT = 500;
const LEAD_NAMES = new Set(['team-lead', 'leader', 'lead']);

/** The node a teammate name designates: the lead is the session; `name@team` is accepted. */
export function teammateRef(em: Emitter, name: string): string | undefined {
  if (LEAD_NAMES.has(name)) return em.sessionId;
  const teammates = (em.session.teammates ??= {});
  return getOwn(teammates, name) ?? getOwn(teammates, name.split('@')[0]!);
}

export function rememberTeammate(em: Emitter, name: string, ref: string): void {
  setOwn((em.session.teammates ??= {}), name, ref);
}

function fingerprint(from: string, to: string, text: string | undefined): string {
  const body = (text ?? '').trim().slice(0, 500);
  return createHash('sha256').update(`${from}\n${to}\n${body}`).digest('hex').slice(0, 24);
}

/** True the first time a message between two nodes is seen (sender's call or recipient's inbox). */
function firstSight(em: Emitter, print: string): boolean {
  const messages = (em.session.messages ??= []);
  if (messages.includes(print)) return false;
  messages.push(print);
  if (messages.length > MESSAGES_KEPT) messages.shift();
  return true;
}

function sendBetween(
  em: Emitter,
  from: string,
  to: string,
  text: string | undefined,
  id?: string,
): void {
  if (from === to || !em.live(from) || !em.live(to)) return;
  if (!firstSight(em, fingerprint(from, to, text))) return;
  em.send('message.sent', from, {
    to,
    ...(text !== undefined ? { text } : {}),
    ...(id !== undefined ? { message_id: id } : {}),
  });
}

/** `SendMessage` by node `ref`. */
export function sendMessage(
  em: Emitter,
  ref: string,
  callId: string,
  op: Extract<ToolOp, { op: 'message' }>,
): void {
  const to = teammateRef(em, op.to);
  if (to) sendBetween(em, ref, to, op.text, callId.slice(0, 200));
}

/** A teammate's message as its recipient `ref` received it. */
export function receiveMessage(em: Emitter, ref: string, fact: TeammateMessageFact): void {
  const from = teammateRef(em, fact.from);
  if (from) sendBetween(em, from, ref, fact.text);
}
