// A failed webhook attempt's plan: retry or dead letter, the streak, switching the endpoint off.
#include "services/webhooks/failure_plan.h"

#include <gtest/gtest.h>

using namespace smsgw;
using namespace smsgw::webhooks;
using namespace std::chrono_literals;

namespace {
const TimePoint kNow = *parseIso("2026-11-23T12:00:00Z");
std::mt19937_64 random_source(7);

FailedAttempt firstFailure() {
  FailedAttempt failed;
  failed.reason = "HTTP 500";
  return failed;
}
}  // namespace

TEST(FailurePlan, AFirstFailureOnAHealthyEndpointIsRetriedInAboutASecond) {
  auto plan = planFailure(firstFailure(), kNow, random_source);
  ASSERT_TRUE(plan.retry_at);
  EXPECT_EQ(*plan.retry_step, 0);
  EXPECT_GE(*plan.retry_at, kNow + 950ms);
  EXPECT_LE(*plan.retry_at, kNow + 1050ms);
  ASSERT_TRUE(plan.streak);
  EXPECT_EQ(plan.streak->failed_events, 1);
  EXPECT_EQ(plan.streak->failing_since, kNow);
  EXPECT_TRUE(plan.dead_letter_reason.empty());
  EXPECT_FALSE(plan.disable);
}

TEST(FailurePlan, AnEndpointAlreadyFailingSkipsTheOneSecondRetry) {
  FailedAttempt failed = firstFailure();
  failed.streak = {kNow - 1h, kNow - 10min, 1};
  auto plan = planFailure(failed, kNow, random_source);
  EXPECT_EQ(*plan.retry_step, 1);
  EXPECT_EQ(plan.streak->failed_events, 2);
}

TEST(FailurePlan, TheLastStepMakesADeadLetterNamingTheAttempts) {
  FailedAttempt failed = firstFailure();
  failed.attempt = 8;
  failed.step = 6;
  failed.streak = {kNow - 2h, kNow - 16h, 1};
  failed.event_counted = true;
  auto plan = planFailure(failed, kNow, random_source);
  EXPECT_FALSE(plan.retry_at);
  EXPECT_EQ(plan.dead_letter_reason, "HTTP 500 after 8 attempts");
  EXPECT_EQ(plan.streak->failed_events, 1);  // the event was counted already
}

TEST(FailurePlan, ADayOfFailuresOverFiveEventsSwitchesTheEndpointOff) {
  FailedAttempt failed = firstFailure();
  failed.streak = {kNow - 25h, kNow - 1h, 5};
  auto plan = planFailure(failed, kNow, random_source);
  EXPECT_TRUE(plan.disable);
  EXPECT_FALSE(plan.retry_at);
  EXPECT_EQ(plan.dead_letter_reason, "HTTP 500 after 1 attempt; endpoint disabled");
  EXPECT_EQ(plan.disable_reason,
            "HTTP 500 for 24 h: 6 events failed since " + formatIso(kNow - 25h));
}

TEST(FailurePlan, AnEndpointSwitchedOffMeanwhileGetsNoRetry) {
  FailedAttempt failed = firstFailure();
  failed.endpoint_active = false;
  auto plan = planFailure(failed, kNow, random_source);
  EXPECT_FALSE(plan.retry_at);
  EXPECT_FALSE(plan.disable);
  EXPECT_EQ(plan.dead_letter_reason, "HTTP 500 after 1 attempt; endpoint disabled");
  EXPECT_TRUE(plan.streak);
}

TEST(FailurePlan, ABlockedAddressLeavesTheStreakAloneAndSwitchesTheEndpointOff) {
  FailedAttempt failed = firstFailure();
  failed.reason = "SSRF_BLOCKED";
  failed.ssrf_blocked = true;
  auto plan = planFailure(failed, kNow, random_source);
  EXPECT_FALSE(plan.streak);
  EXPECT_FALSE(plan.retry_at);
  EXPECT_TRUE(plan.disable);
  EXPECT_EQ(plan.dead_letter_reason, dead_letter_reason::kSsrfBlocked);
}
