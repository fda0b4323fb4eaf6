#pragma once
// The GCRA cases every keeper of request limits must pass (domain/request_rate.h): the one a
// process keeps (tests/unit/request_rate_test.cpp) and the one PostgreSQL keeps for every
// instance (tests/integration/request_limit_test.cpp) run the same ones. `make` builds a fresh
// limiter of the given limit and window on `clock`, which the cases move by hand.

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "domain/request_rate.h"
#include "tests/support/manual_clock.h"

namespace smsgw::testing::limit_cases {

using namespace std::chrono_literals;
using MakeLimiter =
    std::function<std::unique_ptr<RequestLimiter>(int limit, std::chrono::milliseconds window)>;

inline int allowedOf(RequestLimiter& limiter, const std::string& key, int requests) {
  int allowed = 0;
  for (int i = 0; i < requests; ++i) allowed += limiter.hit(key).allowed ? 1 : 0;
  return allowed;
}

inline void wholeLimitAtOnceThenRefusedWithItsWait(const MakeLimiter& make) {
  auto limiter = make(30, 1min);
  for (int i = 0; i < 30; ++i) {
    RateDecision decision = limiter->hit("acct");
    ASSERT_TRUE(decision.allowed) << i;
    EXPECT_EQ(decision.remaining, 29 - i);
    EXPECT_EQ(decision.limit, 30);
  }
  RateDecision refused = limiter->hit("acct");
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.remaining, 0);
  EXPECT_EQ(refused.retry_after_seconds, 2) << "one request comes back every 60 s / 30";
  EXPECT_TRUE(limiter->hit("other").allowed) << "keys are counted apart";
}

inline void noMinuteLetsMoreThroughWhereverItStarts(const MakeLimiter& make, ManualClock& clock) {
  // A fixed window would allow 30 just before a minute's edge and 30 more just after it.
  auto limiter = make(30, 1min);
  auto into_minute =
      std::chrono::duration_cast<std::chrono::milliseconds>(clock.now().time_since_epoch()) % 1min;
  clock.advance(1min - into_minute - 100ms);  // 100 ms before a calendar minute ends
  EXPECT_EQ(allowedOf(*limiter, "acct", 40), 30);
  clock.advance(200ms);
  EXPECT_EQ(allowedOf(*limiter, "acct", 40), 0) << "the calendar minute changed; the span did not";
  clock.advance(2s);
  EXPECT_EQ(allowedOf(*limiter, "acct", 40), 1);
}

inline void requestsComeBackAtTheRate(const MakeLimiter& make, ManualClock& clock) {
  auto limiter = make(5, 1s);
  ASSERT_EQ(allowedOf(*limiter, "acct", 5), 5);
  RateDecision refused = limiter->hit("acct");
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.retry_after_seconds, 1) << "a wait under a second is announced as 1";
  long long full_at = refused.reset_unix;
  clock.advance(200ms);
  RateDecision again = limiter->hit("acct");
  EXPECT_TRUE(again.allowed);
  EXPECT_EQ(again.remaining, 0);
  clock.advance(600ms);
  EXPECT_EQ(limiter->hit("acct").remaining, 2);
  EXPECT_GE(limiter->hit("acct").reset_unix, full_at);
  clock.advance(10s);
  EXPECT_EQ(allowedOf(*limiter, "acct", 10), 5) << "an idle key has its whole limit again";
}

inline void aSteadyRateAtTheLimitIsNeverRefused(const MakeLimiter& make, ManualClock& clock,
                                                int requests) {
  auto limiter = make(100, 1s);
  for (int i = 0; i < requests; ++i) {
    ASSERT_TRUE(limiter->hit("acct").allowed) << i;
    clock.advance(10ms);
  }
}

inline void aKeysOwnLimitReplacesTheDefault(const MakeLimiter& make) {
  auto limiter = make(100, 1s);
  int allowed = 0;
  for (int i = 0; i < 20; ++i) allowed += limiter->hit("slow", 5).allowed ? 1 : 0;
  EXPECT_EQ(allowed, 5);
  EXPECT_EQ(limiter->hit("slow", 5).limit, 5);
}

}  // namespace smsgw::testing::limit_cases
