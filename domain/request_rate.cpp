#include "domain/request_rate.h"

#include <algorithm>

namespace smsgw {
namespace {

long long secondsUp(long long microseconds) {
  return (microseconds + 999'999) / 1'000'000;
}

}  // namespace

std::chrono::microseconds rateInterval(int limit, std::chrono::microseconds window) {
  return std::chrono::microseconds(std::max<long long>(1, window.count() / std::max(limit, 1)));
}

std::optional<long long> nextArrivalAfter(long long next_arrival_us, long long now_us, int limit,
                                          std::chrono::microseconds window) {
  const long long next = std::max(next_arrival_us, now_us) + rateInterval(limit, window).count();
  if (next - now_us > window.count()) return std::nullopt;
  return next;
}

RateDecision rateDecision(bool allowed, long long next_arrival_us, long long now_us, int limit,
                          std::chrono::microseconds window) {
  limit = std::max(limit, 1);
  const long long interval = rateInterval(limit, window).count();
  RateDecision decision;
  decision.allowed = allowed;
  decision.limit = limit;
  decision.reset_unix = secondsUp(next_arrival_us);
  if (!allowed) {
    decision.remaining = 0;
    decision.retry_after_seconds = static_cast<int>(
        std::max<long long>(1, secondsUp(next_arrival_us + interval - window.count() - now_us)));
    return decision;
  }
  decision.remaining = static_cast<int>(std::min<long long>(
      limit - 1, std::max<long long>(0, (now_us + window.count() - next_arrival_us) / interval)));
  return decision;
}

long long microsecondsSinceEpoch(const Clock& clock) {
  return std::chrono::duration_cast<std::chrono::microseconds>(clock.now().time_since_epoch())
      .count();
}

RequestLimiter::RequestLimiter(int default_limit, std::chrono::milliseconds window)
    : default_limit_(default_limit), window_(window) {}

ProcessRequestLimiter::ProcessRequestLimiter(int default_limit, std::chrono::milliseconds window,
                                             const Clock& clock)
    : RequestLimiter(default_limit, window), clock_(clock) {}

RateDecision ProcessRequestLimiter::hit(const std::string& key, int limit) {
  limit = std::max(limit, 1);
  const long long now = microsecondsSinceEpoch(clock_);
  std::lock_guard lock(mutex_);
  if (now - last_prune_us_ > window().count()) {  // a key whose time has passed is a fresh key
    std::erase_if(next_arrival_us_, [&](const auto& entry) { return entry.second <= now; });
    last_prune_us_ = now;
  }
  long long& next_arrival = next_arrival_us_[key];
  auto next = nextArrivalAfter(next_arrival, now, limit, window());
  if (next) next_arrival = *next;
  return rateDecision(next.has_value(), next_arrival, now, limit, window());
}

}  // namespace smsgw
