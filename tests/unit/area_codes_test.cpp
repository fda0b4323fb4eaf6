// The area-code data (domain/data/area_codes.csv) and what is read from it.
#include "domain/area_codes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "domain/phone.h"

using namespace smsgw;

namespace {

std::set<std::string> geographicCodes() {
  std::set<std::string> out;
  for (const auto& entry : areaCodes().all()) {
    if (!entry.toll_free) out.insert(entry.code);
  }
  return out;
}

// Whether libphonenumber (the installed metadata) takes +1 NPA 234-5678 as a Canadian number.
bool libphonenumberKnows(int npa) {
  auto number = E164::parse("+1" + std::to_string(npa) + "2345678");
  return number && isCanadianNumber(*number);
}

}  // namespace

TEST(AreaCodes, EveryProvinceAndTerritoryHasItsCodes) {
  auto groups = areaCodes().byProvince();
  std::set<std::string> provinces;
  for (const auto& group : groups) {
    provinces.insert(group.province.code);
    EXPECT_FALSE(group.area_codes.empty()) << group.province.name;
    EXPECT_TRUE(std::is_sorted(group.area_codes.begin(), group.area_codes.end()));
  }
  EXPECT_EQ(provinces, (std::set<std::string>{"AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON",
                                              "PE", "QC", "SK", "YT"}));
  EXPECT_EQ(geographicCodes().size(), 55u);
}

TEST(AreaCodes, KnowsTheOverlaysOfTheBigCities) {
  for (const char* code : {"416", "647", "437", "942", "514", "438", "263", "604", "778", "236",
                           "672", "257", "403", "587", "825", "368"}) {
    EXPECT_TRUE(areaCodes().isSold(code)) << code;
  }
}

TEST(AreaCodes, RegionIsTheProvinceWhenTheCodeServesOnlyOne) {
  EXPECT_EQ(areaCodes().regionOf("416"), "Ontario");
  EXPECT_EQ(areaCodes().regionOf("514"), "Quebec");
  EXPECT_EQ(areaCodes().regionOf("306"), "Saskatchewan");
  EXPECT_EQ(areaCodes().regionOf("902"), std::nullopt) << "Nova Scotia and Prince Edward Island";
  EXPECT_EQ(areaCodes().regionOf("867"), std::nullopt) << "all three territories";
  EXPECT_EQ(areaCodes().regionOf("833"), std::nullopt) << "toll-free";
  EXPECT_EQ(areaCodes().regionOf("212"), std::nullopt) << "New York is not sold";
}

TEST(AreaCodes, TollFreePrefixesAreSoldExcept800) {
  EXPECT_EQ(areaCodes().tollFreePrefixes(),
            (std::vector<std::string>{"833", "844", "855", "866", "877", "888"}));
  EXPECT_FALSE(areaCodes().isSold("800"));
  EXPECT_FALSE(areaCodes().isSold("900"));
  EXPECT_FALSE(areaCodes().isSold("41"));
}

TEST(AreaCodes, NoUnitedStatesOrCaribbeanCode) {
  for (const char* code : {"212", "310", "206", "876", "242", "808"}) {
    EXPECT_FALSE(areaCodes().isSold(code)) << code;
  }
}

// NANP codes that are services, not places: 5XX personal communications, N00 (toll-free and
// premium), and Canada's non-geographic 600 and 622. libphonenumber counts them as Canadian.
bool isNonGeographicService(int npa) {
  bool personal_communications =
      npa == 500 || (npa >= 521 && npa <= 529) || (npa / 100 == 5 && (npa / 10) % 10 == npa % 10);
  bool n00 = npa % 100 == 0;
  return personal_communications || n00 || npa == 600 || npa == 622;
}

TEST(AreaCodes, CoversEveryCanadianCodeLibphonenumberKnows) {
  auto ours = geographicCodes();
  for (int npa = 200; npa <= 999; ++npa) {
    auto number = E164::parse("+1" + std::to_string(npa) + "2345678");
    if (!number || isTollFreeNumber(*number) || isNonGeographicService(npa)) continue;
    if (libphonenumberKnows(npa)) {
      EXPECT_TRUE(ours.count(std::to_string(npa))) << npa << " is Canadian for libphonenumber";
    }
  }
}

TEST(AreaCodes, CodesNewerThanLibphonenumberStillMakeCanadianNumbers) {
  // isCanadianNumber reads our data too, so every code we sell makes valid Canadian numbers.
  for (const auto& code : geographicCodes()) {
    EXPECT_TRUE(libphonenumberKnows(std::stoi(code))) << code;
    auto bad_exchange = E164::parse("+1" + code + "1345678");
    EXPECT_FALSE(bad_exchange && isCanadianNumber(*bad_exchange))
        << code << ": an exchange cannot start with 1";
  }
}

TEST(AreaCodeData, MalformedRowsAreRefused) {
  EXPECT_THROW(AreaCodeCatalogue::parse("41,geographic,Ontario,ON\n"), std::invalid_argument);
  EXPECT_THROW(AreaCodeCatalogue::parse("416,geo,Ontario,ON\n"), std::invalid_argument);
  EXPECT_THROW(AreaCodeCatalogue::parse("416,geographic,,ON\n"), std::invalid_argument);
  EXPECT_THROW(AreaCodeCatalogue::parse("833,toll_free,,\n833,geographic,Ontario,ON\n"),
               std::invalid_argument);
  auto parsed = AreaCodeCatalogue::parse(
      "# comment\r\n902,geographic,Nova Scotia,NS\r\n"
      "902,geographic,Prince Edward Island,PE\r\n");
  ASSERT_NE(parsed.find("902"), nullptr);
  EXPECT_EQ(parsed.find("902")->provinces.size(), 2u);
}

TEST(AreaCodeOf, ReadsNanpNumbersOnly) {
  EXPECT_EQ(areaCodeOf("+14165550123"), "416");
  EXPECT_EQ(areaCodeOf("+442071234567"), "");
  EXPECT_EQ(areaCodeOf("+1416555"), "");
}
