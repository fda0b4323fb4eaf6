// ISO 8601 instants as the API reads them: a date a TimePoint cannot hold is refused, not
// overflowed (a query's created_after in the year 2482 once ended the API under UBSan).
#include "domain/clock.h"

#include <gtest/gtest.h>

using namespace smsgw;

TEST(ParseIso, ReadsDatesAndInstantsWithFractionsAndOffsets) {
  EXPECT_EQ(formatIso(*parseIso("2026-11-29T04:39:30.518Z")), "2026-11-29T04:39:30.518Z");
  EXPECT_EQ(formatIso(*parseIso("2026-11-29")), "2026-11-29T00:00:00.000Z");
  EXPECT_EQ(formatIso(*parseIso("2026-11-29T00:30:00-05:00")), "2026-11-29T05:30:00.000Z");
}

TEST(ParseIso, ADateATimePointCannotHoldIsRefused) {
  EXPECT_FALSE(parseIso("2482-05-14T00:00:00Z"));
  EXPECT_FALSE(parseIso("9999-12-31"));
  EXPECT_FALSE(parseIso("1600-01-01T00:00:00Z"));
  EXPECT_FALSE(parseIso("0000-01-01"));
  EXPECT_EQ(formatIso(*parseIso("2262-04-09T23:59:59Z")), "2262-04-09T23:59:59.000Z");
  EXPECT_EQ(formatIso(*parseIso("1677-09-23T00:00:00Z")), "1677-09-23T00:00:00.000Z");
}
