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
#include "tests/support/request_limit_cases.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::limits;
using namespace std::chrono_literals;
using smsgw::testing::ManualClock;
using smsgw::testing::ScratchDatabase;
namespace limit_cases = smsgw::testing::limit_cases;

namespace {

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
  limit_cases::MakeLimiter make_ = [this](int limit, std::chrono::milliseconds window) {
    return std::make_unique<SharedRequestLimiter>(database_, "test", limit, window, clock_);
  };
};

}  // namespace

TEST_F(RequestLimits, TheWholeLimitMaySpendAtOnceAndTheNextIsRefusedWithItsWait) {
  limit_cases::wholeLimitAtOnceThenRefusedWithItsWait(make_);
  EXPECT_TRUE(limitOf(30, 1min, "another_limit").hit("acct").allowed)
      << "limits of other names are counted apart";
}

TEST_F(RequestLimits, NoMinuteLetsMoreThanTheLimitThroughWhereverItStarts) {
  limit_cases::noMinuteLetsMoreThroughWhereverItStarts(make_, clock_);
}

TEST_F(RequestLimits, RequestsComeBackAtTheRateAndTheResetIsWhenAllHave) {
  limit_cases::requestsComeBackAtTheRate(make_, clock_);
}

TEST_F(RequestLimits, ASteadyRateAtTheLimitIsNeverRefused) {
  limit_cases::aSteadyRateAtTheLimitIsNeverRefused(make_, clock_, 300);
}

TEST_F(RequestLimits, AKeysOwnLimitReplacesTheDefault) {
  limit_cases::aKeysOwnLimitReplacesTheDefault(make_);
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
  EXPECT_EQ(limit_cases::allowedOf(limit, "busy", 20), 9) << "pruning gave no key a fresh limit";
}
