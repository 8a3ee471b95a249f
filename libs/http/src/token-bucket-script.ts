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

/** Lua storing `tokens` back at `key`, kept until the bucket would be full again. */
const stored = (key: string): string => `
redis.call('HSET', ${key}, 'tokens', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', ${key}, math.ceil((burst - tokens) / rate) + 1000)`;

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
 * Debits `cost` tokens from the same bucket once a request's cost turned out higher than what it
 * reserved (its first item alone was larger), never refusing: the bucket goes into debt by what is
 * owed, and the key's next requests wait until it has refilled, so large items are paid in full.
 * A negative `cost` gives back reserved tokens not used (up to a full bucket). Returns
 * `{tokens left (may be negative), ms until full}`.
 */
export function tokenBucketChargeScript(perSecond: number, burst: number): string {
  return `${NOW}
local cost = tonumber(ARGV[1])
${refilled('KEYS[1]', String(burst), `${perSecond} / 1000`)}
tokens = math.min(burst, tokens - cost)
${stored('KEYS[1]')}
return {math.floor(tokens), math.ceil((burst - tokens) / rate)}`;
}

/**
 * Takes up to `cost` whole tokens from the same bucket, at most half of what it holds (none when
 * it holds less than 2 or is in debt): what a request reserves before it reads (see FairShare).
 * Half, so that requests of the key in flight together share the bucket and the reservations
 * alone never empty it (admissions go on). Returns `{tokens taken, tokens left, ms until full}`.
 */
export function tokenBucketReserveScript(perSecond: number, burst: number): string {
  return `${NOW}
local cost = tonumber(ARGV[1])
${refilled('KEYS[1]', String(burst), `${perSecond} / 1000`)}
local taken = math.min(cost, math.max(0, math.floor(tokens / 2)))
tokens = tokens - taken
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
