/**
 * Lua reading the bucket at `key` refilled up to `now` into `tokens`: `burst` and `rate` (tokens a
 * ms) are Lua expressions, literals baked into a script or read from its ARGV.
 */
const refilled = (key: string, burst: string, rate: string): string => `
local burst = ${burst}
local rate = ${rate}
local s = redis.call('HMGET', ${key}, 'tokens', 'ts')
local tokens = tonumber(s[1]) or burst
local ts = tonumber(s[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate)`;

const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * Lua storing `tokens` back at `key`, kept until the bucket would be full again, and at least while
 * tokens held by reservations in flight are remembered (see tokenBucketReserveScript).
 */
const stored = (key: string): string => `
redis.call('HSET', ${key}, 'tokens', tostring(tokens), 'ts', now)
local heldUntil = tonumber(redis.call('HGET', ${key}, 'held_until')) or 0
redis.call('PEXPIRE', ${key}, math.max(math.ceil((burst - tokens) / rate) + 1000, heldUntil - now))`;

/**
 * How long tokens held by reservations are remembered after the last reservation of a bucket: a
 * request settles long before (REQUEST_TIMEOUT_MS is at most 600 s, a read far less), and what a
 * process that died mid-request held is freed then.
 */
export const RESERVATION_HELD_MS = 60_000;

/** Lua reading the tokens held by reservations in flight at `key` into `held` (0 once forgotten). */
const held = (key: string): string => `
local h = redis.call('HMGET', ${key}, 'held', 'held_until')
local held = 0
if (tonumber(h[2]) or 0) > now then held = tonumber(h[1]) or 0 end`;

/**
 * A token bucket for rate-limiter-flexible's RateLimiterRedis (its `customIncrTtlLuaScript`
 * extension point): holds `burst` tokens, refills `perSecond` tokens a second, `cost` (ARGV[1])
 * tokens a request. Answers in the library's `{consumed, ttl}` shape: `consumed` is burst minus
 * the whole tokens left (above burst when refused), `ttl` the ms until the bucket is full again, or
 * when refused, the ms until enough tokens are back. State lives in one hash per key, expiring once
 * the bucket is full.
 */
export function tokenBucketScript(perSecond: number, burst: number): string {
  return `${NOW}
local cost = tonumber(ARGV[1])
${refilled('KEYS[1]', String(burst), `${perSecond} / 1000`)}
local consumed, ttl
if tokens >= cost then
  tokens = tokens - cost
  consumed = burst - math.floor(tokens)
  ttl = math.ceil((burst - tokens) / rate)
else
  consumed = burst + cost
  ttl = math.ceil((cost - tokens) / rate)
end
${stored('KEYS[1]')}
return {consumed, ttl}`;
}

/**
 * Settles a request against the same bucket, never refusing: debits `cost` (ARGV[1]) tokens, what
 * it cost beyond its first token, and frees `release` (ARGV[2], default 0) tokens it held (see
 * tokenBucketReserveScript). The bucket may go into debt by what is owed, and the key's next
 * requests wait until it has refilled, so large items are paid in full. A negative `cost` gives
 * tokens back (up to a full bucket). Returns `{tokens left (may be negative), ms until full}`.
 */
export function tokenBucketChargeScript(perSecond: number, burst: number): string {
  return `${NOW}
local cost = tonumber(ARGV[1])
local release = tonumber(ARGV[2]) or 0
${refilled('KEYS[1]', String(burst), `${perSecond} / 1000`)}
tokens = math.min(burst, tokens - cost)
if release > 0 then
  ${held('KEYS[1]')}
  redis.call('HSET', KEYS[1], 'held', math.max(0, held - release))
end
${stored('KEYS[1]')}
return {math.floor(tokens), math.ceil((burst - tokens) / rate)}`;
}

/**
 * Holds up to `cost` whole tokens of the same bucket for a request about to read (see FairShare),
 * at most half of those not held already by other requests in flight: concurrent reads of a key
 * share what the bucket holds. Held tokens stay in the bucket: admissions (tokenBucketScript) still
 * take from them, so reads in flight never cause a refusal; the request pays what it read when
 * it settles (tokenBucketChargeScript, which frees what it held). Returns `{tokens held for it,
 * tokens in the bucket, ms until full}`.
 */
export function tokenBucketReserveScript(perSecond: number, burst: number): string {
  return `${NOW}
local cost = tonumber(ARGV[1])
${refilled('KEYS[1]', String(burst), `${perSecond} / 1000`)}
${held('KEYS[1]')}
local taken = math.min(cost, math.max(0, math.floor((tokens - held) / 2)))
if taken > 0 then
  redis.call('HSET', KEYS[1], 'held', held + taken, 'held_until', now + ${RESERVATION_HELD_MS})
end
${stored('KEYS[1]')}
return {taken, math.floor(tokens), math.ceil((burst - tokens) / rate)}`;
}

/**
 * Takes tokens from several buckets at once, all or none: bucket i is KEYS[i], with ARGV[3i-2]
 * its cost, ARGV[3i-1] its burst and ARGV[3i] its tokens a second (limits travel with each call, so
 * each key may have its own). Returns `{allowed (1/0), tokens left or missing, ms}` per bucket, in
 * one flat list: allowed, the whole tokens left and the ms until full; refused, for each bucket the
 * ms until it holds its cost (0 for one that does), and nothing is taken.
 */
export const TOKEN_BUCKETS_TAKE_SCRIPT = `${NOW}
local n = #KEYS
local left, waits = {}, {}
local allowed = 1
for i = 1, n do
  local cost = tonumber(ARGV[3 * i - 2])
  ${refilled('KEYS[i]', 'tonumber(ARGV[3 * i - 1])', 'tonumber(ARGV[3 * i]) / 1000')}
  left[i] = tokens
  waits[i] = 0
  if tokens < cost then
    allowed = 0
    waits[i] = math.ceil((cost - tokens) / rate)
  end
end
local out = {allowed}
for i = 1, n do
  local cost = tonumber(ARGV[3 * i - 2])
  local burst = tonumber(ARGV[3 * i - 1])
  local rate = tonumber(ARGV[3 * i]) / 1000
  local tokens = left[i]
  if allowed == 1 then
    tokens = tokens - cost
    ${stored('KEYS[i]')}
    out[#out + 1] = math.floor(tokens)
    out[#out + 1] = math.ceil((burst - tokens) / rate)
  else
    out[#out + 1] = math.floor(tokens)
    out[#out + 1] = waits[i]
  end
end
return out`;
