// The limit one process keeps (API_REQUEST_LIMITS=process) counts any window-long span, not
// calendar windows: a key spends its whole limit at once, earns one request back every
// window/limit, and never gets more than the limit through in a window, wherever the window
// starts. tests/integration/request_limit_test.cpp holds the deployment's limit to the same.
#include "domain/request_rate.h"

#include <gtest/gtest.h>

#include "tests/support/request_limit_cases.h"

using namespace smsgw;
using namespace std::chrono_literals;
using smsgw::testing::ManualClock;
namespace cases = smsgw::testing::limit_cases;

namespace {

class ProcessRequestLimiterTest : public ::testing::Test {
 protected:
  cases::MakeLimiter make = [this](int limit, std::chrono::milliseconds window) {
    return std::make_unique<ProcessRequestLimiter>(limit, window, clock);
  };
  ManualClock clock;
};

}  // namespace

TEST_F(ProcessRequestLimiterTest, TheWholeLimitMaySpendAtOnceAndTheNextIsRefusedWithItsWait) {
  cases::wholeLimitAtOnceThenRefusedWithItsWait(make);
}

TEST_F(ProcessRequestLimiterTest, NoMinuteLetsMoreThanTheLimitThroughWhereverItStarts) {
  cases::noMinuteLetsMoreThroughWhereverItStarts(make, clock);
}

TEST_F(ProcessRequestLimiterTest, RequestsComeBackAtTheRateAndTheResetIsWhenAllHave) {
  cases::requestsComeBackAtTheRate(make, clock);
}

TEST_F(ProcessRequestLimiterTest, ASteadyRateAtTheLimitIsNeverRefused) {
  cases::aSteadyRateAtTheLimitIsNeverRefused(make, clock, 1000);
}

TEST_F(ProcessRequestLimiterTest, AKeysOwnLimitReplacesTheDefault) {
  cases::aKeysOwnLimitReplacesTheDefault(make);
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
