import { LIMITS, type TokenCounts } from '@graph-history/domain';
import { eventKey } from '../event-key';
import { type Json, isObject, str } from '../json';
import type { NodeEmitter } from '../node-emitter';
import { cleanText } from '../text';
import { UNKNOWN_MODEL, tokenCount } from '../token-count';
import type { RowLine } from './row-line';
import type { SessionMemo } from './state';

/**
 * An assistant message's `tokens` (opencode's MessageV2.Assistant): `input` is already the fresh
 * part (opencode takes the cache out of it), `reasoning` is counted apart from `output`.
 */
export function messageTokens(tokens: Json): TokenCounts {
  const cache = isObject(tokens['cache']) ? tokens['cache'] : {};
  return {
    input_tokens: tokenCount(tokens['input']),
    cache_read_tokens: tokenCount(cache['read']),
    cache_creation_tokens: tokenCount(cache['write']),
    output_tokens: Math.min(
      tokenCount(tokens['output']) + tokenCount(tokens['reasoning']),
      LIMITS.tokens,
    ),
  };
}

/**
 * Reports a completed assistant message's tokens, keyed `<message id>:usage`. opencode updates a
 * message in place while it streams; its tokens are final once `time.completed` is set, so the
 * caller reports them then, once (a later copy of the row adds nothing).
 */
export function reportTokens(memo: SessionMemo, line: RowLine, emit: NodeEmitter): void {
  const tokens = line.data['tokens'];
  if (!isObject(tokens)) return;
  const model = cleanText(str(line.data['modelID']) ?? '', LIMITS.shortText);
  const messageId = cleanText(line.id, LIMITS.shortText);
  emit.usage(memo, eventKey(line.id, 'usage'), {
    model: model || UNKNOWN_MODEL,
    ...messageTokens(tokens),
    ...(messageId ? { message_id: messageId } : {}),
  });
}
