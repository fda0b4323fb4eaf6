// An account's status as text and what it allows (domain/account_status.h).
#include "domain/account_status.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace smsgw;

TEST(AccountStatusTest, EveryStatusReadsBackFromItsText) {
  for (AccountStatus status : {AccountStatus::PendingPayment, AccountStatus::Active,
                               AccountStatus::Suspended, AccountStatus::Closed}) {
    EXPECT_EQ(accountStatusFromString(toString(status)), status) << toString(status);
  }
  EXPECT_EQ(toString(AccountStatus::PendingPayment), "PENDING_PAYMENT");
  EXPECT_THROW(accountStatusFromString("active"), std::invalid_argument);
  EXPECT_THROW(accountStatusFromString(""), std::invalid_argument);
}

TEST(AccountStatusTest, OnlySuspendedAndClosedAccountsAreHeld) {
  EXPECT_FALSE(isHeld(AccountStatus::PendingPayment));
  EXPECT_FALSE(isHeld(AccountStatus::Active));
  EXPECT_TRUE(isHeld(AccountStatus::Suspended));
  EXPECT_TRUE(isHeld(AccountStatus::Closed));
}
