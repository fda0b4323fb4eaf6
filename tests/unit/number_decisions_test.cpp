// Rent and release decisions.
#include "services/numbers/number_decisions.h"

#include <gtest/gtest.h>

using namespace smsgw;
using namespace smsgw::numbers;
using namespace std::chrono_literals;

namespace {
const TimePoint kDue = *parseIso("2026-11-01T00:00:00Z");
}

TEST(NumberDecisions, RentIsDueOnlyForTheNextPeriodOfAnActiveNumberOnceItHasCome) {
  RentStanding number{"ACTIVE", 2, kDue};
  EXPECT_TRUE(rentIsDue(number, 3, kDue));
  EXPECT_TRUE(rentIsDue(number, 3, kDue + 1h));
  EXPECT_FALSE(rentIsDue(number, 3, kDue - 1s));  // not yet
  EXPECT_FALSE(rentIsDue(number, 2, kDue));       // paid already: a replay
  EXPECT_FALSE(rentIsDue(number, 4, kDue));       // skips a period
  for (std::string status : {"SUSPENDED", "RELEASING", "RELEASED"}) {
    EXPECT_FALSE(rentIsDue({status, 2, kDue}, 3, kDue)) << status;
  }
}

TEST(NumberDecisions, UnpaidRentSuspendsAndALatePassCatchesUp) {
  EXPECT_EQ(afterRent(false, kDue, kDue), AfterRent::Suspend);
  EXPECT_EQ(afterRent(true, kDue + 1s, kDue), AfterRent::Paid);
  EXPECT_EQ(afterRent(true, kDue, kDue), AfterRent::PaidAndNextDue);
  EXPECT_EQ(afterRent(true, kDue - 24h, kDue), AfterRent::PaidAndNextDue);
}

TEST(NumberDecisions, ALostReleaseAnswerIsSettledByAskingWhetherTheCarrierHoldsTheNumber) {
  using Kind = NumberOperation::Kind;
  EXPECT_EQ(judgeRelease(Kind::Done, std::nullopt), ReleaseVerdict::Released);
  EXPECT_EQ(judgeRelease(Kind::NotHeld, std::nullopt), ReleaseVerdict::Released);
  EXPECT_EQ(judgeRelease(Kind::Refused, std::nullopt), ReleaseVerdict::StillHeld);
  EXPECT_EQ(judgeRelease(Kind::Failed, NumberHolding::NotHeld), ReleaseVerdict::Released);
  EXPECT_EQ(judgeRelease(Kind::Failed, NumberHolding::Held), ReleaseVerdict::StillHeld);
  EXPECT_EQ(judgeRelease(Kind::Failed, NumberHolding::Unknown), ReleaseVerdict::Pending);
  EXPECT_EQ(judgeRelease(Kind::Failed, std::nullopt), ReleaseVerdict::Pending);
}
