#include "api/http/rate_limiter.h"

#include <algorithm>

namespace smsgw::api {

namespace {

long long secondsUp(long long microseconds) {
  return (microseconds + 999'999) / 1'000'000;
}

}  // namespace

RateLimiter::RateLimiter(int limit, std::chrono::milliseconds window, const Clock& clock)
    : limit_(limit), window_(window), clock_(clock) {}

RateDecision RateLimiter::hit(const std::string& key) {
  return hit(key, limit_);
}

RateDecision RateLimiter::hit(const std::string& key, int limit) {
  limit = std::max(limit, 1);
  const long long now =
      std::chrono::duration_cast<std::chrono::microseconds>(clock_.now().time_since_epoch())
          .count();
  const long long window = window_.count();
  // Rounded down, so that `limit` requests at once always fit in the window.
  const long long interval = std::max<long long>(1, window / limit);

  std::lock_guard lock(mutex_);
  if (now - last_prune_us_ > window) {  // a key whose arrival time has passed is a fresh key
    std::erase_if(next_arrival_us_, [&](const auto& entry) { return entry.second <= now; });
    last_prune_us_ = now;
  }
  long long& next_arrival = next_arrival_us_[key];
  const long long arrival = std::max(next_arrival, now);

  RateDecision decision;
  decision.limit = limit;
  if (arrival + interval - now > window) {
    decision.allowed = false;
    decision.remaining = 0;
    decision.reset_unix = secondsUp(arrival);
    decision.retry_after_seconds =
        static_cast<int>(std::max<long long>(1, secondsUp(arrival + interval - window - now)));
    return decision;
  }
  next_arrival = arrival + interval;
  decision.remaining = static_cast<int>(std::min<long long>(
      limit - 1, std::max<long long>(0, (now + window - next_arrival) / interval)));
  decision.reset_unix = secondsUp(next_arrival);
  return decision;
}

}  // namespace smsgw::api
