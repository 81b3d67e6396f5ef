-- wrk script for scripts/load.sh and load-nginx.sh: POSTs {"query": ...} to the path in
-- CAIRN_PATH, one distinct query per request, cycling through the lines of CAIRN_QUERIES from
-- request number CAIRN_OFFSET on; after one full pass a pass number is appended ("... (pass 2)"),
-- so no request repeats an earlier query (no cache answers it), also across runs that continue
-- each other's offset. CAIRN_BODY_EXTRA (optional) is more of the JSON object, e.g.
-- ',"scope":"namespace"'. With CAIRN_NAMESPACES (a file, one name a line), "{ns}" in the path is
-- replaced by the request number's namespace, cycling through them.
-- done() prints one RESULT line for the scripts' tables.
local path = os.getenv("CAIRN_PATH")
local token = os.getenv("CAIRN_TOKEN")
local extra = os.getenv("CAIRN_BODY_EXTRA") or ""
local queries = {}
for line in io.lines(os.getenv("CAIRN_QUERIES")) do
  if #line > 0 then queries[#queries + 1] = line end
end
local namespaces = {}
if os.getenv("CAIRN_NAMESPACES") then
  for line in io.lines(os.getenv("CAIRN_NAMESPACES")) do
    if #line > 0 then namespaces[#namespaces + 1] = line end
  end
end

local threads = {}
counter = 0 -- global: done() reads it with thread:get
local stride = 1

function setup(thread)
  thread:set("id", #threads)
  threads[#threads + 1] = thread
end

function init(args)
  counter = id + tonumber(os.getenv("CAIRN_OFFSET") or "0")
  stride = tonumber(os.getenv("CAIRN_THREADS"))
end

local function json_string(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return string.format("\\u%04x", c:byte())
  end) .. '"'
end

function request()
  local n = counter
  counter = counter + stride
  local q = queries[(n % #queries) + 1]
  local pass = math.floor(n / #queries)
  if pass > 0 then q = q .. " (pass " .. (pass + 1) .. ")" end
  local body = '{"query":' .. json_string(q) .. extra .. '}'
  local p = path
  if #namespaces > 0 then
    p = path:gsub("{ns}", namespaces[(n % #namespaces) + 1])
  end
  return wrk.format("POST", p, {
    ["Authorization"] = "Bearer " .. token,
    ["Content-Type"] = "application/json",
  }, body)
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local non2xx = summary.errors.status
  local socket = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout
  -- the first request number no thread has used yet: where the next run starts
  local next = 0
  for _, thread in ipairs(threads) do
    next = math.max(next, thread:get("counter"))
  end
  io.write(string.format(
    "RESULT requests=%d rps=%.1f p50_ms=%.1f p99_ms=%.1f non2xx=%d sockerr=%d next=%d\n",
    summary.requests, summary.requests / seconds, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, non2xx, socket, next))
end
