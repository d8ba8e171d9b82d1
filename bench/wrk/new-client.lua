-- wrk script shared by every benchmark (bench/support/wrk.ts runs it).
--
-- Every request comes from a client address never used before in the run: the address is sent
-- in the header the server trusts (CLIENT_IP_HEADER), so each request pays a fresh rate-limit
-- counter, as real traffic from many people does. A path containing "{price}" gets a max_price
-- never used before either (a filter value the response cache has not seen), spread over
-- $20-$500 the way a price slider in a web page produces them. A request body containing
-- "{price}" gets the same treatment (POST /recommend with a new budget_max per request).
--
-- Arguments (after `--`): <client header> <first address number> <path> [pipeline depth]
--   first address number: the harness moves it past every address an earlier run used, so no
--   two runs against the same server share an address (counters live for a whole minute).
--   pipeline depth: requests written per send (HTTP/1.1 pipelining), 1 by default; only the
--   client-flood bench raises it, to reach a million new addresses within one minute.
-- Environment: WRK_METHOD (GET), WRK_BODY_FILE (request body), WRK_HEADERS (name:value|...),
--   WRK_COUNT_STATUS=1 counts responses per status (costs wrk a response parse per request).
-- done() prints one line: WRKJSON {...} with the totals and latency percentiles (microseconds).

local threads = {}
local thread_count = 0

function setup(thread)
  thread:set("tid", thread_count)
  thread_count = thread_count + 1
  table.insert(threads, thread)
end

local header, base, path_template, depth, stride
local method, body, body_has_price, fixed_headers
-- Globals, so that done() can read them from each thread with thread:get.
sent = 0
statuses = {}

local function read_file(name)
  local file = assert(io.open(name, "rb"))
  local content = file:read("*a")
  file:close()
  return content
end

function init(args)
  header = args[1]
  base = tonumber(args[2])
  path_template = args[3]
  depth = tonumber(args[4] or "1")
  method = os.getenv("WRK_METHOD") or "GET"
  local body_file = os.getenv("WRK_BODY_FILE")
  if body_file and body_file ~= "" then body = read_file(body_file) end
  body_has_price = body ~= nil and string.find(body, "{price}", 1, true) ~= nil
  fixed_headers = {}
  for pair in string.gmatch(os.getenv("WRK_HEADERS") or "", "[^|]+") do
    local name, value = string.match(pair, "^([^:]+):(.*)$")
    fixed_headers[name] = value
  end
  -- Distinct per thread: thread t uses numbers base + t, base + t + T, base + t + 2T, ...
  stride = tonumber(os.getenv("WRK_THREADS") or "1")
end

-- 1.0.0.0 upwards: any dotted quad is a valid address for the server's purposes.
local function address(n)
  n = n + 16777216
  local a = math.floor(n / 16777216) % 256
  local b = math.floor(n / 65536) % 256
  local c = math.floor(n / 256) % 256
  local d = n % 256
  return a .. "." .. b .. "." .. c .. "." .. d
end

local function one()
  local n = base + tid + sent * stride
  sent = sent + 1
  local headers = {}
  for name, value in pairs(fixed_headers) do headers[name] = value end
  headers[header] = address(n)
  local path = path_template
  local request_body = body
  if body_has_price or string.find(path, "{price}", 1, true) then
    -- n * 7919 mod 480,000,000 visits every value of the range once: 7919 is prime and does
    -- not divide 480,000,000, so consecutive numbers give prices far apart.
    local micros = (n * 7919) % 480000000
    local price = string.format("%d.%06d", 20 + math.floor(micros / 1000000), micros % 1000000)
    path = string.gsub(path, "{price}", price)
    if body_has_price then request_body = string.gsub(body, "{price}", price) end
  end
  return wrk.format(method, path, headers, request_body)
end

function request()
  if depth == 1 then return one() end
  local parts = {}
  for i = 1, depth do parts[i] = one() end
  return table.concat(parts)
end

if os.getenv("WRK_COUNT_STATUS") == "1" then
  function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
  end
end

function done(summary, latency, requests)
  local counts = {}
  for _, thread in ipairs(threads) do
    local per_thread = thread:get("statuses")
    if per_thread then
      for status, count in pairs(per_thread) do counts[status] = (counts[status] or 0) + count end
    end
  end
  local status_json = {}
  for status, count in pairs(counts) do
    table.insert(status_json, string.format('"%d":%d', status, count))
  end
  local sent_total = 0
  for _, thread in ipairs(threads) do sent_total = sent_total + (thread:get("sent") or 0) end
  io.write(string.format(
    'WRKJSON {"requests":%d,"sent":%d,"duration_us":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"statuses":{%s}}\n',
    summary.requests, sent_total, summary.duration, summary.bytes,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status,
    summary.errors.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    table.concat(status_json, ",")))
end
