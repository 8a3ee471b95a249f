/** Lua reading the bucket at KEYS[1] refilled up to now: `cost` (ARGV[1]), `burst`, `rate`, `now`, `tokens`. */
const refilled = (perSecond: number, burst: number): string => `
local cost = tonumber(ARGV[1])
local burst = ${burst}
local rate = ${perSecond} / 1000
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local s = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(s[1]) or burst
local ts = tonumber(s[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate)`;

/**
 * A token bucket for rate-limiter-flexible's RateLimiterRedis (its `customIncrTtlLuaScript`
 * extension point): holds `burst` tokens, refills `perSecond` tokens a second, one token a request.
 * Answers in the library's `{consumed, ttl}` shape: `consumed` is burst minus the whole tokens left
 * (above burst when refused), `ttl` the ms until the bucket is full again, or when refused, the ms
 * until enough tokens are back. State lives in one hash per key, expiring once the bucket is full.
 */
export function tokenBucketScript(perSecond: number, burst: number): string {
  return `${refilled(perSecond, burst)}
local consumed, ttl
if tokens >= cost then
  tokens = tokens - cost
  consumed = burst - math.floor(tokens)
  ttl = math.ceil((burst - tokens) / rate)
else
  consumed = burst + cost
  ttl = math.ceil((cost - tokens) / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate) + 1000)
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
  return `${refilled(perSecond, burst)}
tokens = math.min(burst, tokens - cost)
local ttl = math.ceil((burst - tokens) / rate)
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', KEYS[1], ttl + 1000)
return {math.floor(tokens), ttl}`;
}

/**
 * Takes up to `cost` whole tokens from the same bucket, at most half of what it holds (none when
 * it holds less than 2 or is in debt): what a request reserves before it reads (see FairShare).
 * Half, so that requests of the key in flight together share the bucket and the reservations
 * alone never empty it (admissions go on). Returns `{tokens taken, tokens left, ms until full}`.
 */
export function tokenBucketReserveScript(perSecond: number, burst: number): string {
  return `${refilled(perSecond, burst)}
local taken = math.min(cost, math.max(0, math.floor(tokens / 2)))
tokens = tokens - taken
local ttl = math.ceil((burst - tokens) / rate)
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', KEYS[1], ttl + 1000)
return {taken, math.floor(tokens), ttl}`;
}
