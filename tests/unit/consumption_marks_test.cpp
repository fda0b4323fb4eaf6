// The reconciler's judgement of lag against loss (topics/group_progress.h): a moment counts as
// read through only once the group's commits reach, on every partition, what the topic held then.
#include <gtest/gtest.h>

#include "topics/group_progress.h"

using namespace smsgw;
using namespace smsgw::topics;

namespace {

TimePoint at(int second) {
  return TimePoint(std::chrono::seconds(1'800'000'000 + second));
}

GroupPosition committedAt(std::vector<long long> committed) {
  return {std::move(committed), std::vector<long long>(3, 0)};
}

}  // namespace

TEST(ConsumptionMarks, NothingIsReadThroughWhileTheGroupLagsOnAnyPartition) {
  ConsumptionMarks marks;
  marks.add({at(10), {100, 50, 70}});
  EXPECT_EQ(marks.consumedThrough(committedAt({100, 49, 70})), std::nullopt);
  EXPECT_EQ(marks.consumedThrough(committedAt({100, 50, 70})), at(10));
}

TEST(ConsumptionMarks, TheNewestMarkReadPastWinsAndTheAnswerNeverGoesBack) {
  ConsumptionMarks marks;
  marks.add({at(10), {100, 50, 70}});
  marks.add({at(20), {160, 90, 70}});
  marks.add({at(30), {200, 120, 75}});
  EXPECT_EQ(marks.consumedThrough(committedAt({170, 95, 72})), at(20));
  EXPECT_EQ(marks.consumedThrough(committedAt({100, 50, 70})), at(20))
      << "an older commit (another member's, read late) does not undo what was seen";
  EXPECT_EQ(marks.consumedThrough(committedAt({200, 120, 75})), at(30));
}

TEST(ConsumptionMarks, APartitionNeverCommittedIsReadOnlyWhileItHoldsNothingPastItsStart) {
  ConsumptionMarks marks;
  marks.add({at(10), {0, 40, 0}});
  GroupPosition fresh{{-1001, 40, -1001}, {0, 0, 0}};
  EXPECT_EQ(marks.consumedThrough(fresh), at(10)) << "empty partitions: nothing to read";
  marks.add({at(20), {5, 40, 0}});
  EXPECT_EQ(marks.consumedThrough(fresh), at(10)) << "five records not yet read";
  GroupPosition retained{{-1001, 40, -1001}, {5, 0, 0}};  // the five aged out of the log
  EXPECT_EQ(marks.consumedThrough(retained), at(20));
}

TEST(ConsumptionMarks, AnAnswerFromATopicOfAnotherShapeOrNoAnswerKeepsWhatWasKnown) {
  ConsumptionMarks marks;
  marks.add({at(10), {1, 1, 1}});
  EXPECT_EQ(marks.consumedThrough(committedAt({1, 1, 1})), at(10));
  marks.add({at(20), {2, 2, 2}});
  EXPECT_EQ(marks.consumedThrough({}), at(10));
  EXPECT_EQ(marks.consumedThrough({{2, 2}, {0, 0}}), at(10));
}

TEST(ConsumptionMarks, OnlyTheNewestMarksAreKept) {
  ConsumptionMarks marks(2);
  marks.add({at(10), {1, 0, 0}});
  marks.add({at(20), {2, 0, 0}});
  marks.add({at(30), {3, 0, 0}});
  EXPECT_EQ(marks.consumedThrough(committedAt({1, 0, 0})), std::nullopt)
      << "the mark it read past was dropped: later, never earlier";
  EXPECT_EQ(marks.consumedThrough(committedAt({2, 0, 0})), at(20));
}
