#pragma once
// Request limits as the generic cell rate algorithm (GCRA): a key (an account, a client
// address) may spend `limit` requests at once, then earns one back every window/limit. So no
// span of one window ever holds more than `limit` allowed requests, wherever it starts; a fixed
// window would let twice the limit through around its edge, and the spec's "30 a minute" means
// any minute. A key's whole state is one time: when its next request is due (its "next
// arrival"); a request is allowed while that time, pushed on by one interval, lies at most a
// window ahead of now (nextArrivalAfter below, and db/functions/take_request_slot.sql, which
// takes the same decision where every API instance sees it).
//
// Two keepers of those times: the whole deployment's, in PostgreSQL
// (services/limits/shared_request_limiter.h, the default), and this process's alone
// (ProcessRequestLimiter: one API instance, or a benchmark's other side; API_REQUEST_LIMITS).

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "domain/clock.h"

namespace smsgw {

struct RateDecision {
  bool allowed = true;
  int limit = 0;
  int remaining = 0;            // requests that could be spent right now, after this one
  long long reset_unix = 0;     // when the key has its whole limit again (Unix seconds, up)
  int retry_after_seconds = 0;  // set when refused: when the next request would be allowed
};

// The time one request adds to its key's next arrival: window/limit, rounded down so that
// `limit` requests at once always fit in the window (at least 1 µs).
std::chrono::microseconds rateInterval(int limit, std::chrono::microseconds window);

// The key's next arrival after one more request at `now_us`, or nothing if the limit refuses
// it. `next_arrival_us` is the key's as it stands (0 for a key never seen). Microseconds since
// the epoch.
std::optional<long long> nextArrivalAfter(long long next_arrival_us, long long now_us, int limit,
                                          std::chrono::microseconds window);

// The answer's figures once the decision is known: `next_arrival_us` is the key's next arrival
// after the request (allowed) or as it stands (refused).
RateDecision rateDecision(bool allowed, long long next_arrival_us, long long now_us, int limit,
                          std::chrono::microseconds window);

// Takes a request's slot for a key, or refuses it. Thread-safe.
class RequestLimiter {
 public:
  RequestLimiter(int default_limit, std::chrono::milliseconds window);
  virtual ~RequestLimiter() = default;
  RequestLimiter(const RequestLimiter&) = delete;
  RequestLimiter& operator=(const RequestLimiter&) = delete;

  RateDecision hit(const std::string& key) { return hit(key, default_limit_); }
  // The same with this key's own limit (an account staff gave another rate).
  virtual RateDecision hit(const std::string& key, int limit) = 0;

 protected:
  std::chrono::microseconds window() const { return window_; }

 private:
  int default_limit_;
  std::chrono::microseconds window_;
};

// The times kept in this process: each API instance enforces its own limit, so N instances
// give N times it.
class ProcessRequestLimiter final : public RequestLimiter {
 public:
  ProcessRequestLimiter(int default_limit, std::chrono::milliseconds window, const Clock& clock);
  using RequestLimiter::hit;
  RateDecision hit(const std::string& key, int limit) override;

 private:
  const Clock& clock_;
  std::mutex mutex_;
  std::unordered_map<std::string, long long> next_arrival_us_;
  long long last_prune_us_ = 0;
};

long long microsecondsSinceEpoch(const Clock& clock);

}  // namespace smsgw
