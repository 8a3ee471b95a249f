import { cleanText } from '../text';
import type { Fact } from './line';
import { TEXT_MAX } from './tool-input';

const BLOCK = /<(task|agent)-notification>([\s\S]*?)<\/\1-notification>/g;

function tag(body: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(body);
  return match?.[1]?.trim();
}

/**
 * Background completions: `<task-notification>` (2.1.x) or `<agent-notification>` (2.0.x).
 * `queued` when only enqueued (a `queue-operation` line), not yet delivered to the session.
 */
export function notificationFacts(text: string, queued: boolean): Fact[] {
  const facts: Fact[] = [];
  for (const match of text.matchAll(BLOCK)) {
    const body = match[2]!;
    const taskId = tag(body, 'task-id') ?? tag(body, 'agent-id');
    const status = tag(body, 'status');
    if (!taskId || !status) continue;
    const summary = tag(body, 'summary') ?? tag(body, 'result');
    facts.push({
      kind: 'notification',
      taskId,
      status,
      queued,
      ...(summary ? { summary: cleanText(summary, TEXT_MAX) } : {}),
    });
  }
  return facts;
}

export function hasNotification(text: string): boolean {
  return text.includes('-notification>');
}
