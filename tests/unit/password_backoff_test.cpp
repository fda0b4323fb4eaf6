// How long wrong passwords shut an account's password (issue 34, item 4).
#include "domain/password_backoff.h"

#include <gtest/gtest.h>

using namespace smsgw;
using std::chrono::seconds;

TEST(PasswordBackoff, AFewMistakesAreFreeThenEachFailureDoublesTheWaitUpToACeiling) {
  for (int failures = 0; failures < kFreePasswordFailures; ++failures)
    EXPECT_EQ(passwordBlockAfter(failures), seconds(0)) << failures;
  EXPECT_EQ(passwordBlockAfter(5), seconds(30));
  EXPECT_EQ(passwordBlockAfter(6), seconds(60));
  EXPECT_EQ(passwordBlockAfter(7), seconds(120));
  EXPECT_EQ(passwordBlockAfter(10), seconds(900));
  EXPECT_EQ(passwordBlockAfter(24), seconds(900));
  EXPECT_EQ(passwordBlockAfter(1'000'000), seconds(900));
}
