#include "services/webhooks/failure_plan.h"

namespace smsgw::webhooks {
namespace {

namespace policy = webhook_policy;

std::string streakSummary(const std::string& reason, const policy::Streak& streak) {
  return reason + " for 24 h: " + std::to_string(streak.failed_events) + " events failed since " +
         formatIso(*streak.failing_since);
}

}  // namespace

std::string afterAttempts(const std::string& reason, int attempts) {
  return reason + " after " + std::to_string(attempts) + (attempts == 1 ? " attempt" : " attempts");
}

FailurePlan planFailure(const FailedAttempt& failed, TimePoint now, std::mt19937_64& random) {
  FailurePlan plan;
  if (failed.ssrf_blocked) {
    // Not a failure of the endpoint's server: the streak is left alone, the endpoint is off.
    plan.dead_letter_reason = dead_letter_reason::kSsrfBlocked;
    plan.disable = true;
    plan.disable_reason = dead_letter_reason::kSsrfBlocked;
    return plan;
  }
  bool was_failing = policy::continuesStreak(failed.streak, now);
  plan.streak = policy::afterFailure(failed.streak, now, failed.event_counted);
  if (!failed.endpoint_active) {
    plan.dead_letter_reason = afterAttempts(failed.reason, failed.attempt) + "; endpoint disabled";
    return plan;
  }
  int step = failed.step ? *failed.step + 1 : policy::firstRetryStep(was_failing);
  auto due = policy::retryDueAt(step, now, random);
  plan.disable = policy::shouldDisable(*plan.streak, now);
  if (due && !plan.disable) {
    plan.retry_step = step;
    plan.retry_at = due;
  } else {
    plan.dead_letter_reason =
        afterAttempts(failed.reason, failed.attempt) + (plan.disable ? "; endpoint disabled" : "");
  }
  if (plan.disable) plan.disable_reason = streakSummary(failed.reason, *plan.streak);
  return plan;
}

}  // namespace smsgw::webhooks
