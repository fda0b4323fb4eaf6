#include "domain/webhook_retry_policy.h"

namespace smsgw::webhook_policy {

int firstRetryStep(bool endpoint_was_failing) {
  return endpoint_was_failing ? 1 : 0;
}

std::optional<TimePoint> retryDueAt(int step, TimePoint failed_at, std::mt19937_64& random) {
  if (step < 0 || step >= kRetrySteps) return std::nullopt;
  auto delay = std::chrono::duration_cast<std::chrono::milliseconds>(kRetryDelays[step]);
  std::uniform_real_distribution<double> jitter(0.95, 1.05);
  return failed_at + std::chrono::milliseconds(static_cast<long long>(
                         static_cast<double>(delay.count()) * jitter(random)));
}

bool continuesStreak(const Streak& streak, TimePoint now) {
  return streak.failing_since && streak.last_failure_at &&
         now - *streak.last_failure_at <= kStreakReset;
}

Streak afterFailure(const Streak& streak, TimePoint now, bool event_counted) {
  if (!continuesStreak(streak, now)) return {now, now, 1};
  return {streak.failing_since, now, streak.failed_events + (event_counted ? 0 : 1)};
}

bool shouldDisable(const Streak& streak, TimePoint now) {
  return streak.failing_since && now - *streak.failing_since >= kDisableAfter &&
         streak.failed_events >= kDisableMinEvents;
}

}  // namespace smsgw::webhook_policy
