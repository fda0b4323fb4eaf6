// The outbox relay's bound (topics/commit_bound.h): a stamp is passed only once every
// transaction that could still commit at or below it has ended.
#include "topics/commit_bound.h"

#include <gtest/gtest.h>

using namespace smsgw::topics;

TEST(CommitBound, WithNothingRunningTheLastStampIsSafeAtOnce) {
  CommitBound bound;
  EXPECT_EQ(bound.advance({7, std::nullopt, 100}), 7);
}

TEST(CommitBound, AStampWaitsForEveryTransactionRunningWhenItWasRead) {
  CommitBound bound;
  // Transaction 120 may hold stamp 7 and not have committed: 7 waits.
  EXPECT_EQ(bound.advance({7, 120, 110}), std::nullopt);
  EXPECT_EQ(bound.advance({9, 125, 120}), std::nullopt) << "120 still runs";
  EXPECT_EQ(bound.advance({9, 125, 121}), 7) << "all up to 120 ended: 7, not yet 9";
  EXPECT_EQ(bound.advance({9, 130, 126}), 9);
}

TEST(CommitBound, AnOldTransactionHoldsBackOnlyTheStampsReadWhileItRan) {
  CommitBound bound;
  EXPECT_EQ(bound.advance({3, 50, 50}), std::nullopt);
  EXPECT_EQ(bound.advance({5, 60, 50}), std::nullopt);
  EXPECT_EQ(bound.advance({8, 70, 50}), std::nullopt);
  // 50 ends; 60 has not: stamp 3 only.
  EXPECT_EQ(bound.advance({8, 70, 60}), 3);
  EXPECT_EQ(bound.advance({8, 70, 71}), 8);
}

TEST(CommitBound, TheBoundNeverGoesBack) {
  CommitBound bound;
  EXPECT_EQ(bound.advance({10, std::nullopt, 5}), 10);
  // A later read cannot offer less (the sequence only grows), and a waiting one does not
  // lower it.
  EXPECT_EQ(bound.advance({10, 40, 30}), 10);
  EXPECT_EQ(bound.advance({12, 40, 30}), 10);
  EXPECT_EQ(bound.advance({12, 40, 41}), 12);
}

TEST(CommitBound, ASafeReadReleasesEveryOneWaitingBeforeIt) {
  CommitBound bound;
  for (long long stamp = 1; stamp <= 300; ++stamp)  // more than it keeps waiting
    EXPECT_EQ(bound.advance({stamp, 1000, 900}), std::nullopt);
  EXPECT_EQ(bound.advance({301, std::nullopt, 1001}), 301);
  EXPECT_EQ(bound.advance({301, 1200, 1100}), 301);
}
