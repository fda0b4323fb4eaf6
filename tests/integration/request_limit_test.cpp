// Request limits as every API instance keeps them, in PostgreSQL (services/limits): a key
// spends its whole limit at once, earns one request back every window/limit, never gets more
// than the limit through in any window-long span wherever it starts, and two instances deciding
// for one key at once together allow what one would.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "services/limits/shared_request_limiter.h"
#include "tests/support/manual_clock.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::limits;
using namespace std::chrono_literals;
using smsgw::testing::ManualClock;
using smsgw::testing::ScratchDatabase;

namespace {

int allowedOf(RequestLimiter& limit, const std::string& key, int requests) {
  int allowed = 0;
  for (int i = 0; i < requests; ++i) allowed += limit.hit(key).allowed ? 1 : 0;
  return allowed;
}

class RequestLimits : public ::testing::Test {
 protected:
  SharedRequestLimiter limitOf(int requests, std::chrono::milliseconds window,
                               const std::string& name = "test") {
    return {database_, name, requests, window, clock_};
  }
  long long cells() {
    soci::session sql(database_.pool());
    long long count = 0;
    sql << "SELECT count(*) FROM request_rate_cells", soci::into(count);
    return count;
  }

  ScratchDatabase scratch_;
  db::Database database_{scratch_.url(), 8};
  ManualClock clock_;
};

}  // namespace

TEST_F(RequestLimits, TheWholeLimitMaySpendAtOnceAndTheNextIsRefusedWithItsWait) {
  SharedRequestLimiter limit = limitOf(30, 1min);
  for (int i = 0; i < 30; ++i) {
    RateDecision decision = limit.hit("acct");
    ASSERT_TRUE(decision.allowed) << i;
    EXPECT_EQ(decision.remaining, 29 - i);
    EXPECT_EQ(decision.limit, 30);
  }
  RateDecision refused = limit.hit("acct");
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.remaining, 0);
  EXPECT_EQ(refused.retry_after_seconds, 2) << "one request comes back every 60 s / 30";
  EXPECT_TRUE(limit.hit("other").allowed) << "keys are counted apart";
  EXPECT_TRUE(limitOf(30, 1min, "another_limit").hit("acct").allowed)
      << "limits of other names are counted apart";
}

TEST_F(RequestLimits, NoMinuteLetsMoreThanTheLimitThroughWhereverItStarts) {
  // A fixed window would allow 30 just before a minute's edge and 30 more just after it.
  SharedRequestLimiter limit = limitOf(30, 1min);
  auto into_minute =
      std::chrono::duration_cast<std::chrono::milliseconds>(clock_.now().time_since_epoch()) % 1min;
  clock_.advance(1min - into_minute - 100ms);  // 100 ms before a calendar minute ends
  EXPECT_EQ(allowedOf(limit, "acct", 40), 30);
  clock_.advance(200ms);
  EXPECT_EQ(allowedOf(limit, "acct", 40), 0) << "the calendar minute changed; the span did not";
  clock_.advance(2s);
  EXPECT_EQ(allowedOf(limit, "acct", 40), 1);
}

TEST_F(RequestLimits, RequestsComeBackAtTheRateAndTheResetIsWhenAllHave) {
  SharedRequestLimiter limit = limitOf(5, 1s);
  ASSERT_EQ(allowedOf(limit, "acct", 5), 5);
  RateDecision refused = limit.hit("acct");
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.retry_after_seconds, 1) << "a wait under a second is announced as 1";
  long long full_at = refused.reset_unix;
  clock_.advance(200ms);
  RateDecision again = limit.hit("acct");
  EXPECT_TRUE(again.allowed);
  EXPECT_EQ(again.remaining, 0);
  clock_.advance(600ms);
  EXPECT_EQ(limit.hit("acct").remaining, 2);
  EXPECT_GE(limit.hit("acct").reset_unix, full_at);
  clock_.advance(10s);
  EXPECT_EQ(allowedOf(limit, "acct", 10), 5) << "an idle key has its whole limit again";
}

TEST_F(RequestLimits, ASteadyRateAtTheLimitIsNeverRefused) {
  SharedRequestLimiter limit = limitOf(100, 1s);
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(limit.hit("acct").allowed) << i;
    clock_.advance(10ms);
  }
}

TEST_F(RequestLimits, AKeysOwnLimitReplacesTheDefault) {
  SharedRequestLimiter limit = limitOf(100, 1s);
  int allowed = 0;
  for (int i = 0; i < 20; ++i) allowed += limit.hit("slow", 5).allowed ? 1 : 0;
  EXPECT_EQ(allowed, 5);
  EXPECT_EQ(limit.hit("slow", 5).limit, 5);
}

TEST_F(RequestLimits, TwoInstancesDecidingAtOnceTogetherAllowTheLimitOnce) {
  // Two API instances: each its own limit object and connection pool, four threads each,
  // all asking for one key at the same instant.
  db::Database other_instance(scratch_.url(), 8);
  SharedRequestLimiter first = limitOf(50, 1min);
  SharedRequestLimiter second(other_instance, "test", 50, 1min, clock_);
  std::atomic<int> allowed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    RequestLimiter& limit = t % 2 == 0 ? first : second;
    threads.emplace_back([&limit, &allowed] {
      for (int i = 0; i < 25; ++i) allowed += limit.hit("acct").allowed ? 1 : 0;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(allowed.load(), 50) << "200 asked, one limit of 50 between both instances";
}

TEST_F(RequestLimits, KeysWhoseTimeHasPassedArePrunedAndTheActiveOnesKept) {
  SharedRequestLimiter limit = limitOf(10, 1s);
  for (int i = 0; i < 20; ++i) limit.hit("idle-" + std::to_string(i));
  ASSERT_EQ(cells(), 20);
  clock_.advance(2min);
  limit.hit("busy");  // the first hit after a minute prunes, then takes its slot
  EXPECT_EQ(cells(), 1) << "only the key just used is left";
  EXPECT_EQ(allowedOf(limit, "busy", 20), 9) << "pruning gave no key a fresh limit";
}
