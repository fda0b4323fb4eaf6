// The rate limiter counts any window-long span, not calendar windows: a key spends its whole
// limit at once, earns one request back every window/limit, and never gets more than the limit
// through in a window, wherever the window starts.
#include "api/http/rate_limiter.h"

#include <gtest/gtest.h>

#include "tests/support/manual_clock.h"

using namespace smsgw::api;
using namespace std::chrono_literals;
using smsgw::testing::ManualClock;

namespace {

int allowedOf(RateLimiter& limiter, const std::string& key, int requests) {
  int allowed = 0;
  for (int i = 0; i < requests; ++i) allowed += limiter.hit(key).allowed ? 1 : 0;
  return allowed;
}

}  // namespace

TEST(RateLimiter, TheWholeLimitMaySpendAtOnceAndTheNextIsRefusedWithItsWait) {
  ManualClock clock;
  RateLimiter limiter(30, 1min, clock);
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

TEST(RateLimiter, NoMinuteLetsMoreThanTheLimitThroughWhereverItStarts) {
  // A fixed window would allow 30 just before a minute's edge and 30 more just after it.
  ManualClock clock;
  RateLimiter limiter(30, 1min, clock);
  auto into_minute =
      std::chrono::duration_cast<std::chrono::milliseconds>(clock.now().time_since_epoch()) % 1min;
  clock.advance(1min - into_minute - 100ms);  // 100 ms before a calendar minute ends
  EXPECT_EQ(allowedOf(limiter, "acct", 40), 30);
  clock.advance(200ms);
  EXPECT_EQ(allowedOf(limiter, "acct", 40), 0) << "the calendar minute changed; the span did not";
  clock.advance(2s);
  EXPECT_EQ(allowedOf(limiter, "acct", 40), 1);
}

TEST(RateLimiter, RequestsComeBackAtTheRateAndTheResetIsWhenAllHave) {
  ManualClock clock;
  RateLimiter limiter(5, 1s, clock);
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

TEST(RateLimiter, ASteadyRateAtTheLimitIsNeverRefused) {
  ManualClock clock;
  RateLimiter limiter(100, 1s, clock);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(limiter.hit("acct").allowed) << i;
    clock.advance(10ms);
  }
}

TEST(RateLimiter, AKeysOwnLimitReplacesTheDefault) {
  ManualClock clock;
  RateLimiter limiter(100, 1s, clock);
  int allowed = 0;
  for (int i = 0; i < 20; ++i) allowed += limiter.hit("slow", 5).allowed ? 1 : 0;
  EXPECT_EQ(allowed, 5);
  EXPECT_EQ(limiter.hit("slow", 5).limit, 5);
}
