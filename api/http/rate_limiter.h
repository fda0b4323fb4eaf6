#pragma once
// Fixed-window request counting per key (an account id). In-process: with several API
// instances each enforces its own window, so the effective limit scales with instances.
// Thread-safe.

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

#include "domain/clock.h"

namespace smsgw::api {

struct RateDecision {
  bool allowed = true;
  int limit = 0;
  int remaining = 0;
  long long reset_unix = 0;     // when the current window ends (Unix seconds, rounded up)
  int retry_after_seconds = 0;  // set when refused
};

class RateLimiter {
 public:
  RateLimiter(int limit, std::chrono::milliseconds window, const Clock& clock);
  RateDecision hit(const std::string& key);
  // The same with this key's own limit (an account staff gave another rate).
  RateDecision hit(const std::string& key, int limit);

 private:
  struct Window {
    long long index = -1;
    int count = 0;
  };
  int limit_;
  std::chrono::milliseconds window_;
  const Clock& clock_;
  std::mutex mutex_;
  std::unordered_map<std::string, Window> windows_;
  long long last_prune_index_ = 0;
};

}  // namespace smsgw::api
