-- wrk: POST /v1/messages round-robin over the benchmark customers' (key, from, to) tuples,
-- each body unique. Optional fixed rate per connection (RATE_PER_CONNECTION, requests/s).
local tuples = {}
for line in io.lines(os.getenv("BENCH_TUPLES")) do
  local key, from, to = line:match("(%S+) (%S+) (%S+)")
  tuples[#tuples + 1] = {key, from, to}
end
local counter = 0
local thread_id = 0
local rate = tonumber(os.getenv("RATE_PER_CONNECTION") or "0")

function init(args)
  math.randomseed(os.time() + thread_id * 7919)
  -- Each run starts at a random place in the walk over the tuples: from 0, every run would text
  -- the same first recipients again, and a long bench would meet the recipient hourly limit.
  counter = math.random(0, #tuples - 1)
end

function setup(thread)
  thread:set("thread_id", thread_id)
  thread_id = thread_id + 1
end

function request()
  counter = counter + 1
  local t = tuples[((counter * 7919 + thread_id * 104729) % #tuples) + 1]
  local body = string.format('{"from":"%s","to":"%s","body":"Bench %d-%d: your order is ready"}',
                             t[2], t[3], thread_id, counter)
  return wrk.format("POST", "/v1/messages", {
    ["Authorization"] = "Bearer " .. t[1],
    ["Content-Type"] = "application/json",
    ["Connection"] = "keep-alive",
  }, body)
end

-- The pause before each request is drawn from an exponential distribution (Poisson arrivals at
-- the given mean rate): fixed pauses would keep every connection in step and turn the load into
-- bursts of one request per connection at once.
if rate > 0 then
  function delay()
    return -math.log(1 - math.random()) * 1000 / rate
  end
end

local statuses = {}
function response(status)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  io.write(string.format("errors: connect %d, read %d, write %d, status %d, timeout %d\n",
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status,
    summary.errors.timeout))
end
