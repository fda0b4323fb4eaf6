#pragma once
// What a failed webhook attempt decides, apart from what settling it reads and writes
// (delivery_store.cpp): the endpoint's streak after it, whether the event is retried (at which
// step, when) or becomes a dead letter, and whether the endpoint is switched off. Built on the
// arithmetic of domain/webhook_policy. Pure; unit-tested in tests/unit/failure_plan_test.cpp.

#include <optional>
#include <random>
#include <string>

#include "domain/account_status.h"
#include "domain/clock.h"
#include "domain/webhook_retry_policy.h"

namespace smsgw::webhooks {

// What settling the failure read.
struct FailedAttempt {
  std::string reason;             // the attempt's failure (status code, timeout, SSRF_BLOCKED …)
  int attempt = 1;                // 1 for the first delivery
  std::optional<int> step;        // the retry schedule step this attempt was; none for the first
  bool ssrf_blocked = false;      // the address is not allowed: not the server's failure
  bool endpoint_active = true;    // switched off meanwhile: no retry
  webhook_policy::Streak streak;  // the endpoint's streak before this failure
  bool event_counted = false;     // the event already failed within that streak
};

struct FailurePlan {
  std::optional<webhook_policy::Streak> streak;  // to save; none when left alone (SSRF)
  std::optional<int> retry_step;                 // set with retry_at: retried
  std::optional<TimePoint> retry_at;
  std::string dead_letter_reason;  // set when the event becomes a dead letter
  bool disable = false;            // the endpoint is switched off, what it is owed dead-lettered
  std::string disable_reason;
};

FailurePlan planFailure(const FailedAttempt& failed, TimePoint now, std::mt19937_64& random);

// "<reason> after N attempt(s)", a dead letter's reason.
std::string afterAttempts(const std::string& reason, int attempts);

// Why an event became a dead letter, beside "<reason> after N attempts".
namespace dead_letter_reason {
inline constexpr const char* kQueueFull = "queue_full";
inline constexpr const char* kEndpointDisabled = "ENDPOINT_DISABLED";  // switched off by the user
inline constexpr const char* kSsrfBlocked = "SSRF_BLOCKED";
// Everything for a SUSPENDED or CLOSED account: ACCOUNT_SUSPENDED, ACCOUNT_CLOSED.
inline std::string accountNotServed(AccountStatus status) {
  return "ACCOUNT_" + std::string(toString(status));
}
}  // namespace dead_letter_reason

}  // namespace smsgw::webhooks
