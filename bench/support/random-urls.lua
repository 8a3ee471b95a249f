-- wrk script: each request is a random line of a URL file, pre-formatted once per thread.
-- Usage: wrk -s random-urls.lua <url> -- <url file> [authorization header value]
-- A line is `<path>` or `<path>\t<etag>`: with an ETag the request sends If-None-Match.
-- `done` prints one JSON line (latencies in microseconds, and how many answers had each status
-- >= 400) for bench/support/wrk.ts to parse.
local requests = {}
local threads = {}
-- per thread (each has its own Lua state): status -> answers, for statuses >= 400
refused = {}

function setup(thread)
  threads[#threads + 1] = thread
end

function init(args)
  local auth = args[2]
  for line in io.lines(args[1]) do
    local path, etag = line:match("^([^\t]+)\t?(.*)$")
    local headers = {}
    if auth and auth ~= "" then headers["Authorization"] = auth end
    if etag and etag ~= "" then headers["If-None-Match"] = etag end
    requests[#requests + 1] = wrk.format("GET", path, headers)
  end
  math.randomseed(os.time() + tonumber(tostring(requests):match("0x(%x+)") or "0", 16) % 100000)
end

function request()
  return requests[math.random(#requests)]
end

function response(status, _, _)
  if status >= 400 then refused[status] = (refused[status] or 0) + 1 end
end

function done(summary, latency, _)
  local errors = summary.errors
  local statuses = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("refused")) do
      statuses[#statuses + 1] = string.format('"%d":%d', status, n)
    end
  end
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,' ..
    '"connect_errors":%d,"read_errors":%d,"write_errors":%d,"status_errors":%d,"timeouts":%d,' ..
    '"statuses":{%s}}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    table.concat(statuses, ",")))
end
