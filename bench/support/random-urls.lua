-- wrk script: each request is a random line of a URL file, pre-formatted once per thread.
-- Usage: wrk -s random-urls.lua <url> -- <url file> [authorization header value]
-- A line is `<path>` or `<path>\t<etag>`: with an ETag the request sends If-None-Match.
-- `done` prints one JSON line (latencies in microseconds) for bench/support/wrk.ts to parse.
local requests = {}

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

function done(summary, latency, _)
  local errors = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,' ..
    '"connect_errors":%d,"read_errors":%d,"write_errors":%d,"status_errors":%d,"timeouts":%d}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
