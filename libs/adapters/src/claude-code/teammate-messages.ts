import { cleanText } from '../text';
import type { TeammateMessageFact } from './line';
import { TEXT_MAX } from './tool-input';

const BLOCK = /<teammate-message\s+([^>]*)>([\s\S]*?)<\/teammate-message>/g;

function attribute(attrs: string, name: string): string | undefined {
  return new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1];
}

/** Team protocol payloads (idle notices, shutdown handshakes) are JSON objects, not messages. */
export function isProtocol(body: string): boolean {
  if (!body.startsWith('{')) return false;
  try {
    const parsed = JSON.parse(body) as unknown;
    return typeof parsed === 'object' && parsed !== null && 'type' in parsed;
  } catch {
    return false;
  }
}

/** Messages delivered from teammates' inboxes, as a user line of the recipient shows them. */
export function teammateMessages(text: string): TeammateMessageFact[] {
  const facts: TeammateMessageFact[] = [];
  for (const match of text.matchAll(BLOCK)) {
    const from = attribute(match[1]!, 'teammate_id');
    const body = match[2]!.trim();
    if (!from || body === '' || isProtocol(body)) continue;
    facts.push({ kind: 'teammate_message', from, text: cleanText(body, TEXT_MAX) });
  }
  return facts;
}
