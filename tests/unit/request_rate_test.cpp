// The limit one process keeps (API_REQUEST_LIMITS=process) counts any window-long span, not
// calendar windows: a key spends its whole limit at once, earns one request back every
// window/limit, and never gets more than the limit through in a window, wherever the window
// starts. tests/integration/request_limit_test.cpp holds the deployment's limit to the same.
#include "domain/request_rate.h"

#include <gtest/gtest.h>

#include "tests/support/manual_clock.h"

using namespace smsgw;
using namespace std::chrono_literals;
using smsgw::testing::ManualClock;

namespace {

int allowedOf(RequestLimiter& limiter, const std::string& key, int requests) {
  int allowed = 0;
  for (int i = 0; i < requests; ++i) allowed += limiter.hit(key).allowed ? 1 : 0;
  return allowed;
}

}  // namespace

TEST(ProcessRequestLimiter, TheWholeLimitMaySpendAtOnceAndTheNextIsRefusedWithItsWait) {
  ManualClock clock;
  ProcessRequestLimiter limiter(30, 1min, clock);
  for (int i = 0; i < 30; ++i) {
    RateDecision decision = limiter.hit("acct");
    ASSERT_TRUE(decision.allowed) << i;
    EXPECT_EQ(decision.remaining, 29 - i);
    EXPECT_EQ(decision.limit, 30);
  }
  RateDecision refused = limiter.hit("acct");
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.remaining, 0);
  EXPECT_EQ(refused.retry_after_seconds, 2) << "one request comes back every 60 s / 30";
  EXPECT_TRUE(limiter.hit("other").allowed) << "keys are counted apart";
}

TEST(ProcessRequestLimiter, NoMinuteLetsMoreThanTheLimitThroughWhereverItStarts) {
  // A fixed window would allow 30 just before a minute's edge and 30 more just after it.
  ManualClock clock;
  ProcessRequestLimiter limiter(30, 1min, clock);
  auto into_minute =
      std::chrono::duration_cast<std::chrono::milliseconds>(clock.now().time_since_epoch()) % 1min;
  clock.advance(1min - into_minute - 100ms);  // 100 ms before a calendar minute ends
  EXPECT_EQ(allowedOf(limiter, "acct", 40), 30);
  clock.advance(200ms);
  EXPECT_EQ(allowedOf(limiter, "acct", 40), 0) << "the calendar minute changed; the span did not";
  clock.advance(2s);
  EXPECT_EQ(allowedOf(limiter, "acct", 40), 1);
}

TEST(ProcessRequestLimiter, RequestsComeBackAtTheRateAndTheResetIsWhenAllHave) {
  ManualClock clock;
  ProcessRequestLimiter limiter(5, 1s, clock);
  ASSERT_EQ(allowedOf(limiter, "acct", 5), 5);
  RateDecision refused = limiter.hit("acct");
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.retry_after_seconds, 1) << "a wait under a second is announced as 1";
  long long full_at = refused.reset_unix;
  clock.advance(200ms);
  RateDecision again = limiter.hit("acct");
  EXPECT_TRUE(again.allowed);
  EXPECT_EQ(again.remaining, 0);
  clock.advance(600ms);
  EXPECT_EQ(limiter.hit("acct").remaining, 2);
  EXPECT_GE(limiter.hit("acct").reset_unix, full_at);
  clock.advance(10s);
  EXPECT_EQ(allowedOf(limiter, "acct", 10), 5) << "an idle key has its whole limit again";
}

TEST(ProcessRequestLimiter, ASteadyRateAtTheLimitIsNeverRefused) {
  ManualClock clock;
  ProcessRequestLimiter limiter(100, 1s, clock);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(limiter.hit("acct").allowed) << i;
    clock.advance(10ms);
  }
}

TEST(ProcessRequestLimiter, AKeysOwnLimitReplacesTheDefault) {
  ManualClock clock;
  ProcessRequestLimiter limiter(100, 1s, clock);
  int allowed = 0;
  for (int i = 0; i < 20; ++i) allowed += limiter.hit("slow", 5).allowed ? 1 : 0;
  EXPECT_EQ(allowed, 5);
  EXPECT_EQ(limiter.hit("slow", 5).limit, 5);
}

TEST(NextArrivalAfter, IsTheRuleTheDatabaseTakesToo) {
  // db/functions/take_request_slot.sql decides with the same inequality; the figures here are
  // the ones tests/integration/request_limit_test.cpp sees from it.
  const std::chrono::microseconds minute = 1min;
  EXPECT_EQ(nextArrivalAfter(0, 1'000'000, 30, minute), 3'000'000) << "a new key: now + 2 s";
  EXPECT_EQ(nextArrivalAfter(59'000'000, 1'000'000, 30, minute), 61'000'000)
      << "the last of the 30: exactly a window ahead is allowed";
  EXPECT_EQ(nextArrivalAfter(61'000'000, 1'000'000, 30, minute), std::nullopt);
}
