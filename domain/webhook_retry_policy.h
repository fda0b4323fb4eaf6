#pragma once
// The webhook delivery rules that are arithmetic (spec "Delivery rules" 2, 5 and 6), kept free
// of I/O so they are unit-tested on their own; the dispatcher applies them in its transactions.

#include <chrono>
#include <optional>
#include <random>

#include "domain/clock.h"

namespace smsgw::webhook_policy {

// Waits before each retry: about 1 s, then 1 min, 5 min, 30 min, 2 h, 6 h and 16 h. With the
// first attempt that is 8 attempts over about 24 hours.
inline constexpr std::chrono::seconds kRetryDelays[] = {
    std::chrono::seconds(1),  std::chrono::minutes(1), std::chrono::minutes(5),
    std::chrono::minutes(30), std::chrono::hours(2),   std::chrono::hours(6),
    std::chrono::hours(16)};
inline constexpr int kRetrySteps = 7;
inline constexpr int kMaxAttempts = 8;

// The schedule step of an event's first retry: the 1-second retry is skipped when the endpoint
// was already failing before this event failed.
int firstRetryStep(bool endpoint_was_failing);

// When the retry at `step` is due after a failure at `failed_at`: the delay with ±5% jitter,
// so that events failed together do not all come back in the same instant. (±5% keeps the 16 h
// wait under the 17 h that would end a streak.) Nothing when `step` is past the schedule (the
// event becomes a dead letter).
std::optional<TimePoint> retryDueAt(int step, TimePoint failed_at, std::mt19937_64& random);

// An endpoint's failure streak, as kept on the webhook row.
struct Streak {
  std::optional<TimePoint> failing_since;    // first failed attempt since the last success
  std::optional<TimePoint> last_failure_at;  // the latest failed attempt
  int failed_events = 0;                     // distinct events failed since failing_since
};

inline constexpr auto kStreakReset = std::chrono::hours(17);
inline constexpr auto kDisableAfter = std::chrono::hours(24);
inline constexpr int kDisableMinEvents = 5;
inline constexpr auto kOwnerNoticeAfter = std::chrono::hours(1);

// Whether a failure at `now` continues the streak (rather than starting one).
bool continuesStreak(const Streak& streak, TimePoint now);
// The streak after a failed attempt at `now`. `event_counted` says the event already failed
// within the current streak (a retry), so it is not counted twice. A failure more than 17 h
// after the previous one starts a new streak.
Streak afterFailure(const Streak& streak, TimePoint now, bool event_counted);
// Disabled only after 24 h of failures with no success and at least 5 distinct failed events.
bool shouldDisable(const Streak& streak, TimePoint now);

}  // namespace smsgw::webhook_policy
