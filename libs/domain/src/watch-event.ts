import { z } from 'zod';
import { compileTypedCheck } from './compiled-check';
import { payloadText } from './payload-text';
import { ATTENTION_REASONS, END_STATES, LINK_METHODS, NODE_STATES, TASK_STATUSES } from './node';

/** Limits on what one WatchEvent may carry; larger values are rejected, never cut. */
export const LIMITS = {
  key: 200,
  ref: 512,
  shortText: 200,
  text: 20_000,
  tasks: 1_000,
  refsPerWait: 100,
  /** Characters of all strings of one payload together, field names included (payloadText). */
  payloadText: 100_000,
  /** Depth of a node in its tree (a root is 0): a create under a node this deep is refused. */
  treeDepth: 32,
  /** Open waits in one graph at once; a wait beyond them is not opened (the event applies). */
  openWaits: 100,
  /** Tokens of one kind in one `usage.reported` event. */
  tokens: 1e12,
} as const;

/** NUL and unpaired surrogates cannot be stored in Postgres text/jsonb, so they are refused here. */
const UNPAIRED_SURROGATE = /\p{Cs}/u;
const isStorable = (s: string): boolean => !s.includes('\u0000') && !UNPAIRED_SURROGATE.test(s);
const storable = (min: number, max: number) =>
  z.string().min(min).max(max).refine(isStorable, {
    message: 'remove NUL characters and unpaired surrogates',
  });

const ref = storable(1, LIMITS.ref);
const shortText = storable(0, LIMITS.shortText);
const idText = storable(1, LIMITS.shortText);
const text = storable(0, LIMITS.text);
const tokens = z.number().int().min(0).max(LIMITS.tokens);

const payloads = {
  'session.started': z.strictObject({
    title: text.optional(),
    cwd: text.optional(),
    parent: ref.optional(),
  }),
  'agent.spawned': z.strictObject({
    parent: ref,
    agent_type: shortText,
    purpose: text,
    background: z.boolean().optional(),
    spawn_call_id: shortText.optional(),
    requested_by: ref.optional(),
    cwd: text.optional(),
    link_method: z.enum(LINK_METHODS).optional(),
  }),
  status: z.strictObject({ state: z.enum(NODE_STATES), summary: text.optional() }),
  activity: z.strictObject({ summary: text.optional() }),
  title: z.strictObject({ title: text }),
  'tasks.updated': z.strictObject({
    tasks: z
      .array(
        z.strictObject({
          id: idText.optional(),
          content: text,
          status: z.enum(TASK_STATUSES),
          active_form: text.optional(),
          owner: shortText.optional(),
          blocked_by: z.array(idText).max(LIMITS.tasks).optional(),
        }),
      )
      .max(LIMITS.tasks),
  }),
  'wait.started': z.strictObject({
    on: z.array(ref).min(1).max(LIMITS.refsPerWait),
    reason: text.optional(),
  }),
  'wait.ended': z.strictObject({ on: z.array(ref).min(1).max(LIMITS.refsPerWait).optional() }),
  'message.sent': z.strictObject({ to: ref, text: text.optional(), message_id: idText.optional() }),
  'attention.raised': z.strictObject({
    reason: z.enum(ATTENTION_REASONS),
    message: text.optional(),
  }),
  'attention.cleared': z.strictObject({}),
  ended: z.strictObject({ state: z.enum(END_STATES), summary: text.optional() }),
  'usage.reported': z.strictObject({
    model: idText,
    input_tokens: tokens,
    cache_read_tokens: tokens.optional(),
    cache_creation_tokens: tokens.optional(),
    output_tokens: tokens,
    message_id: idText.optional(),
    request_id: idText.optional(),
  }),
} as const;

export type WatchEventType = keyof typeof payloads;
export const WATCH_EVENT_TYPES = Object.keys(payloads) as WatchEventType[];

export type PayloadOf<T extends WatchEventType> = z.infer<(typeof payloads)[T]>;

const source = z.strictObject({
  provider: idText,
  provider_version: shortText,
  adapter: idText,
});

const envelope = z.strictObject({
  key: storable(1, LIMITS.key),
  type: z.string(),
  created: z.number().int().nonnegative().max(8.64e15),
  node: ref,
  source,
  payload: z.record(z.unknown()),
});

interface Envelope<T extends WatchEventType> {
  key: string;
  type: T;
  created: number;
  node: string;
  source: z.infer<typeof source>;
  payload: PayloadOf<T>;
}

export type WatchEvent = { [T in WatchEventType]: Envelope<T> }[WatchEventType];

/** The WatchEvent of one type, e.g. `EventOf<'status'>`. */
export type EventOf<T extends WatchEventType> = Envelope<T>;

/** Why an event is refused: `param` is relative to the event (`payload.state`), `message` one sentence. */
export interface Rejection {
  param: string;
  message: string;
}

export type ParseResult = { ok: true; event: WatchEvent } | { ok: false; rejection: Rejection };

function fromZod(error: z.ZodError, prefix: string[]): Rejection {
  const issue = error.issues[0]!;
  const path = [...prefix, ...issue.path.map(String)];
  if (issue.code === 'unrecognized_keys') path.push(issue.keys[0]!);
  const param = path.length ? path.join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]') : 'event';
  const message =
    issue.code === 'unrecognized_keys'
      ? `Unknown field ${param}; remove it.`
      : `Invalid ${param}: ${issue.message}.`;
  return { param, message };
}

/** Each type's whole event (envelope and payload) as one compiled check: parseWatchEvent's fast path. */
const isValidWatchEvent = compileTypedCheck(
  Object.fromEntries(
    Object.entries(payloads).map(([type, payload]) => [
      type,
      envelope.extend({ type: z.literal(type), payload }),
    ]),
  ),
  isStorable,
);

/** Checks shape, types and size of one raw event (no graph state needed). */
export function parseWatchEvent(raw: unknown): ParseResult {
  const parsed: ParseResult = isValidWatchEvent(raw)
    ? { ok: true, event: raw as WatchEvent }
    : parseWatchEventByZod(raw);
  if (!parsed.ok) return parsed;
  const size = payloadText(parsed.event.payload);
  if (size <= LIMITS.payloadText) return parsed;
  return {
    ok: false,
    rejection: {
      param: 'payload',
      message: `The payload holds ${size} characters of text (field names included); at most ${LIMITS.payloadText} are allowed: shorten or drop its longest texts.`,
    },
  };
}

/** parseWatchEvent without its fast path: what the compiled check must agree with. */
export function parseWatchEventByZod(raw: unknown): ParseResult {
  const env = envelope.safeParse(raw);
  if (!env.success) return { ok: false, rejection: fromZod(env.error, []) };
  const type = env.data.type;
  if (!Object.hasOwn(payloads, type)) {
    return {
      ok: false,
      rejection: {
        param: 'type',
        message: `Unknown event type ${JSON.stringify(type).slice(0, 80)}; use one of ${WATCH_EVENT_TYPES.join(', ')}.`,
      },
    };
  }
  const payload = payloads[type as WatchEventType].safeParse(env.data.payload);
  if (!payload.success) return { ok: false, rejection: fromZod(payload.error, ['payload']) };
  return { ok: true, event: { ...env.data, type, payload: payload.data } as WatchEvent };
}
