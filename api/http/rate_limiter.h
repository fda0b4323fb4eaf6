#pragma once
// Request limits per key (an account id, an address), as the generic cell rate algorithm
// (GCRA): a key may spend `limit` requests at once, then earns one back every window/limit.
// So no span of one window ever holds more than `limit` allowed requests, wherever it starts;
// a fixed window would let twice the limit through around its edge, and the spec's "30 a
// minute" means any minute. One timestamp per key. In-process: with several API instances
// each enforces its own limit, so the effective limit scales with instances. Thread-safe.

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

#include "domain/clock.h"

namespace smsgw::api {

struct RateDecision {
  bool allowed = true;
  int limit = 0;
  int remaining = 0;            // requests that could be spent right now, after this one
  long long reset_unix = 0;     // when the key has its whole limit again (Unix seconds, up)
  int retry_after_seconds = 0;  // set when refused: when the next request would be allowed
};

class RateLimiter {
 public:
  RateLimiter(int limit, std::chrono::milliseconds window, const Clock& clock);
  RateDecision hit(const std::string& key);
  // The same with this key's own limit (an account staff gave another rate).
  RateDecision hit(const std::string& key, int limit);

 private:
  int limit_;
  std::chrono::microseconds window_;
  const Clock& clock_;
  std::mutex mutex_;
  // The theoretical arrival time of each key's next request (microseconds since the epoch):
  // the key is refused while it lies more than a window ahead of now.
  std::unordered_map<std::string, long long> next_arrival_us_;
  long long last_prune_us_ = 0;
};

}  // namespace smsgw::api
