#include "api/http/rate_limiter.h"

#include <algorithm>

namespace smsgw::api {

RateLimiter::RateLimiter(int limit, std::chrono::milliseconds window, const Clock& clock)
    : limit_(limit), window_(window), clock_(clock) {}

RateDecision RateLimiter::hit(const std::string& key) {
  return hit(key, limit_);
}

RateDecision RateLimiter::hit(const std::string& key, int limit) {
  auto now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(clock_.now().time_since_epoch());
  long long index = now_ms.count() / window_.count();
  long long window_end_ms = (index + 1) * window_.count();
  std::lock_guard lock(mutex_);
  if (index - last_prune_index_ > 60) {  // forget idle accounts now and then
    std::erase_if(windows_, [&](const auto& entry) { return entry.second.index < index; });
    last_prune_index_ = index;
  }
  Window& w = windows_[key];
  if (w.index != index) w = {index, 0};
  RateDecision decision;
  decision.limit = limit;
  decision.reset_unix = (window_end_ms + 999) / 1000;
  if (w.count >= limit) {
    decision.allowed = false;
    decision.remaining = 0;
    decision.retry_after_seconds =
        static_cast<int>(std::max<long long>(1, (window_end_ms - now_ms.count() + 999) / 1000));
    return decision;
  }
  w.count++;
  decision.remaining = limit - w.count;
  return decision;
}

}  // namespace smsgw::api
