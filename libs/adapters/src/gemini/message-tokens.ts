import { LIMITS, type TokenCounts } from '@graph-history/domain';
import { eventKey } from '../event-key';
import { type Json, isObject, str } from '../json';
import type { NodeEmitter } from '../node-emitter';
import { getOwn, setOwn } from '../own-record';
import { cleanText } from '../text';
import { UNKNOWN_MODEL, tokenCount } from '../token-count';
import type { ChatMemo } from './state';

/**
 * A gemini message's `tokens` (gemini-cli's TokensSummary, from the response's usage metadata):
 * `input` is the whole prompt, `cached` the part of it read from the cache; `tool` (tool-use
 * prompt) and `thoughts` are counted apart from `input` and `output`.
 */
export function messageTokens(tokens: Json): TokenCounts {
  const input = tokenCount(tokens['input']);
  const cached = Math.min(tokenCount(tokens['cached']), input);
  return {
    input_tokens: Math.min(input - cached + tokenCount(tokens['tool']), LIMITS.tokens),
    cache_read_tokens: cached,
    cache_creation_tokens: 0,
    output_tokens: Math.min(
      tokenCount(tokens['output']) + tokenCount(tokens['thoughts']),
      LIMITS.tokens,
    ),
  };
}

/**
 * Reports a gemini message's tokens once, keyed `<file id>:usage:<message id>`. gemini-cli sets a
 * message's tokens once (a message re-written with its calls, or in a `$set.messages` checkpoint,
 * repeats them), so the first copy that carries them is final.
 */
export function reportTokens(memo: ChatMemo, fileId: string, m: Json, emit: NodeEmitter): void {
  const id = str(m['id']);
  const tokens = m['tokens'];
  if (m['type'] !== 'gemini' || !id || !isObject(tokens)) return;
  const reported = (memo.usage ??= {});
  if (getOwn(reported, id) !== undefined) return;
  const model = cleanText(str(m['model']) ?? '', LIMITS.shortText);
  const messageId = cleanText(id, LIMITS.shortText);
  const payload = {
    model: model || UNKNOWN_MODEL,
    ...messageTokens(tokens),
    ...(messageId ? { message_id: messageId } : {}),
  };
  if (emit.usage(memo, eventKey(fileId, 'usage', id), payload)) setOwn(reported, id, 1);
}
