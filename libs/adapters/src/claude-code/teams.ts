import { createHash } from 'node:crypto';
import { getOwn, setOwn } from '../own-record';
import type { Emitter } from './emitter';
import type { InboxMessageFact, TeammateMessageFact, ToolOp } from './line';

/** Copies of messages remembered per session, to recognise other copies of a message already sent. */
const MESSAGES_KEPT = 1_500;
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

/**
 * Where a copy of a message was seen: the sender's `SendMessage` call, the recipient's transcript
 * (`<teammate-message>`), or the recipient's inbox file.
 */
export type MessageCopy = 'call' | 'delivered' | 'inbox';

/**
 * True when this copy is of a message not sent yet: a message is sent once however many of its
 * copies arrive, in any order; the same text sent twice has two copies of each kind.
 */
function firstSight(em: Emitter, print: string, copy: MessageCopy): boolean {
  const messages = (em.session.messages ??= []);
  const count = (c: MessageCopy) => messages.filter((m) => m === `${print}:${c}`).length;
  const others = (['call', 'delivered', 'inbox'] as const).filter((c) => c !== copy);
  const isNew = count(copy) >= Math.max(...others.map(count));
  messages.push(`${print}:${copy}`);
  if (messages.length > MESSAGES_KEPT) messages.shift();
  return isNew;
}

function sendBetween(
  em: Emitter,
  from: string,
  to: string,
  text: string | undefined,
  copy: MessageCopy,
  id?: string,
): void {
  if (from === to || !em.live(from) || !em.live(to)) return;
  if (!firstSight(em, fingerprint(from, to, text), copy)) return;
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
  if (to) sendBetween(em, ref, to, op.text, 'call', callId.slice(0, 200));
}

/** A teammate's message as its recipient `ref` received it. */
export function receiveMessage(em: Emitter, ref: string, fact: TeammateMessageFact): void {
  const from = teammateRef(em, fact.from);
  if (from) sendBetween(em, from, ref, fact.text, 'delivered');
}

/** A message of a teammate's inbox file. */
export function inboxMessage(em: Emitter, fact: InboxMessageFact): void {
  const from = teammateRef(em, fact.from);
  const to = teammateRef(em, fact.to);
  if (from && to) sendBetween(em, from, to, fact.text, 'inbox');
}
