// Rent periods on the provisioning anniversary, and reading ISO 8601 times.
#include "domain/rent_period.h"

#include <gtest/gtest.h>

using namespace smsgw;

namespace {

TimePoint at(const char* iso) {
  auto parsed = parseIso(iso);
  EXPECT_TRUE(parsed) << iso;
  return parsed.value_or(TimePoint{});
}

std::string periodStart(const char* anchor, int period) {
  return formatIso(rentPeriodStart(at(anchor), period));
}

}  // namespace

TEST(RentPeriod, TheFirstPeriodStartsAtProvisioning) {
  EXPECT_EQ(periodStart("2026-03-10T14:30:15.250Z", 1), "2026-03-10T14:30:15.250Z");
  EXPECT_EQ(periodStart("2026-03-10T14:30:15.250Z", 2), "2026-04-10T14:30:15.250Z");
}

TEST(RentPeriod, MonthEndsAreClampedFromTheAnchorNotFromThePreviousPeriod) {
  const char* anchor = "2026-01-31T09:00:00.000Z";
  EXPECT_EQ(periodStart(anchor, 2), "2026-02-28T09:00:00.000Z");
  EXPECT_EQ(periodStart(anchor, 3), "2026-03-31T09:00:00.000Z") << "not Mar 28";
  EXPECT_EQ(periodStart(anchor, 4), "2026-04-30T09:00:00.000Z");
  EXPECT_EQ(periodStart(anchor, 5), "2026-05-31T09:00:00.000Z");
}

TEST(RentPeriod, LeapYearsGiveFebruaryItsTwentyNinthDay) {
  EXPECT_EQ(periodStart("2028-01-31T00:00:00.000Z", 2), "2028-02-29T00:00:00.000Z");
  EXPECT_EQ(periodStart("2027-01-30T00:00:00.000Z", 2), "2027-02-28T00:00:00.000Z");
  EXPECT_EQ(periodStart("2100-01-29T00:00:00.000Z", 2), "2100-02-28T00:00:00.000Z")
      << "2100 is not a leap year";
  EXPECT_EQ(periodStart("2000-01-29T00:00:00.000Z", 2), "2000-02-29T00:00:00.000Z") << "2000 is";
}

TEST(RentPeriod, ANumberBoughtOnALeapDayIsBilledOnTheLastDayOfFebruary) {
  const char* anchor = "2028-02-29T12:00:00.000Z";
  EXPECT_EQ(periodStart(anchor, 2), "2028-03-29T12:00:00.000Z");
  EXPECT_EQ(periodStart(anchor, 13), "2029-02-28T12:00:00.000Z");
  EXPECT_EQ(periodStart(anchor, 49), "2032-02-29T12:00:00.000Z");
}

TEST(RentPeriod, PeriodsCrossTheYearEnd) {
  EXPECT_EQ(periodStart("2026-11-22T18:00:00.000Z", 3), "2027-01-22T18:00:00.000Z");
  EXPECT_EQ(periodStart("2026-12-31T23:59:59.999Z", 2), "2027-01-31T23:59:59.999Z");
  EXPECT_EQ(periodStart("2026-12-31T23:59:59.999Z", 3), "2027-02-28T23:59:59.999Z");
  EXPECT_EQ(periodStart("2026-12-15T00:00:00.000Z", 25), "2028-12-15T00:00:00.000Z");
}

TEST(ParseIso, ReadsDateTimesWithTheirOffsetsAndDates) {
  EXPECT_EQ(formatIso(at("2027-01-15T00:00:00Z")), "2027-01-15T00:00:00.000Z");
  EXPECT_EQ(formatIso(at("2027-01-15T10:20:30.5Z")), "2027-01-15T10:20:30.500Z");
  EXPECT_EQ(formatIso(at("2027-01-15T10:20:30.123456Z")), "2027-01-15T10:20:30.123Z");
  EXPECT_EQ(formatIso(at("2027-01-15T10:20:30+00:00")), "2027-01-15T10:20:30.000Z");
  EXPECT_EQ(formatIso(at("2027-01-15T21:30:00-05:00")), "2027-01-16T02:30:00.000Z");
  EXPECT_EQ(formatIso(at("2027-01-15T01:00:00+02:30")), "2027-01-14T22:30:00.000Z");
  EXPECT_EQ(formatIso(at("2027-01-15")), "2027-01-15T00:00:00.000Z");
  EXPECT_EQ(formatIso(at(formatIso(at("2028-02-29T23:59:59.999Z")).c_str())),
            "2028-02-29T23:59:59.999Z");
}

TEST(ParseIso, RefusesWhatIsNotAnIsoTime) {
  for (const char* bad :
       {"", "2027-1-15", "2027-02-30", "2027-13-01", "2027-01-15T25:00:00Z", "2027-01-15T10:00:00",
        "2027-01-15T10:00:00-5:00", "2027-01-15T10:00:00+24:00", "2027-01-15T10:00:00 05:00",
        "tomorrow", "2027-01-15T10:00:00.Z", "2027-01-15T10:00Z"}) {
    EXPECT_FALSE(parseIso(bad)) << bad;
  }
}
