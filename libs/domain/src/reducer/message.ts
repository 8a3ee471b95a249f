import { NodeRecord } from '../node';
import { EventOf } from '../watch-event';
import { EventContext } from './event-context';
import { cutText, MESSAGE_TEXT_MAX } from './text';

export function sendMessage(
  ctx: EventContext,
  sender: NodeRecord,
  ev: EventOf<'message.sent'>,
): void {
  const { to, text, message_id } = ev.payload;
  ctx.message = {
    seq: ctx.seq,
    fromNo: sender.no,
    toNo: ctx.state.byRef.get(to)!,
    messageId: message_id ?? `msg_${ctx.seq}`,
    text: text === undefined ? null : cutText(text, MESSAGE_TEXT_MAX),
    created: ctx.created,
  };
}
