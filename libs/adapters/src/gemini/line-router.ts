import { LIMITS } from '@graph-history/domain';
import { str } from '../json';
import { NodeEmitter } from '../node-emitter';
import { cleanText, firstLine } from '../text';
import { messagesOf } from './agent-calls';
import type { ChatLine } from './chat-line';
import { createWhenReady, readHeader } from './chats';
import { contentText } from './chat-line';
import { reportTokens } from './message-tokens';
import { applyMessage } from './messages';
import type { Run } from './run';
import { GEMINI_SOURCE } from './source';
import { type ChatMemo, MAX_HELD_LINES, chatOf } from './state';

const PROMPT_MAX = 2_000;

/** Applies one line of a created node. */
function route(run: Run, memo: ChatMemo, line: ChatLine): void {
  const emit = NodeEmitter.ofLine(GEMINI_SOURCE, line.fileId, line.lineNo, line.ts ?? 0, run.out);
  for (const message of messagesOf(line)) {
    applyMessage(run, memo, message, emit);
    reportTokens(memo, line.fileId, message, emit);
  }
  if (line.record.kind === 'set') {
    const summary = str(line.record.value['summary']);
    const title = summary === undefined ? undefined : cleanText(summary, LIMITS.shortText);
    if (title !== undefined && !memo.depth && title !== memo.title) {
      if (emit.send('title', memo, { title })) Object.assign(memo, { titled: true, title });
    }
  }
  if (line.record.kind === 'rewind') emit.activity(memo, 'Conversation rewound');
}

/** Applies one chat line in timeline order. */
export function applyLine(run: Run, line: ChatLine): void {
  const memo = chatOf(run.state, line.fileId, line.path);
  if (line.record.kind === 'header') {
    readHeader(run, memo, line, route);
    return;
  }
  if (memo.ref === undefined) {
    if (memo.held.length < MAX_HELD_LINES) memo.held.push(line);
    if (memo.parentFolder !== undefined && !memo.begun) {
      memo.begun = true;
      const first = messagesOf(line)[0];
      const text = first?.['type'] === 'user' ? contentText(first['content']) : '';
      const prompt = firstLine(text, PROMPT_MAX);
      if (prompt !== undefined) memo.prompt = prompt;
      createWhenReady(run, line.fileId, route);
    }
    return;
  }
  route(run, memo, line);
}

/** Sub-agents seen only by their header at the end of a back-fill: made now, if their session is. */
export function settleHeaders(run: Run): void {
  for (const [fileId, memo] of Object.entries(run.state.chats)) {
    if (memo.ref !== undefined || memo.parentFolder === undefined || memo.begun) continue;
    memo.begun = true;
    createWhenReady(run, fileId, route);
  }
}

/** Chats still not created at the end of a back-fill. */
export function reportUnplaced(run: Run): void {
  for (const memo of Object.values(run.state.chats)) {
    if (memo.ref !== undefined) continue;
    const why =
      memo.sessionId === undefined
        ? 'its header line was not read'
        : `its session ${memo.parentFolder ?? '?'} was not read`;
    run.problems.push({
      file: memo.path,
      lineNo: 1,
      message: `Gemini chat not shared: ${why} (${memo.held.length} lines held)`,
    });
  }
}
