#include "domain/sms_segments.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "domain/phone.h"

using namespace smsgw;

TEST(SmsSegments, Gsm7FitsOneHundredSixtyInOnePart) {
  EXPECT_EQ(countSegments(std::string(160, 'a')).parts, 1);
  EXPECT_EQ(countSegments(std::string(161, 'a')).parts, 2);
  EXPECT_EQ(countSegments(std::string(306, 'a')).parts, 2);
  EXPECT_EQ(countSegments(std::string(307, 'a')).parts, 3);
  EXPECT_EQ(countSegments(std::string(160, 'a')).encoding, SmsEncoding::Gsm7);
}

TEST(SmsSegments, ExtensionCharactersCountTwice) {
  EXPECT_EQ(countSegments(std::string(80, '{')).parts, 1);  // 160 septets
  EXPECT_EQ(countSegments(std::string(81, '{')).parts, 2);  // 162 septets
  EXPECT_EQ(countSegments(std::string(80, '[')).characters, 80);
}

TEST(SmsSegments, AccentedFrenchStaysGsmWhereTheTableHasIt) {
  EXPECT_EQ(countSegments("été à Montréal").encoding, SmsEncoding::Gsm7);
  EXPECT_EQ(countSegments("Ça coûte 5 $").encoding, SmsEncoding::Ucs2);  // û is not GSM-7
}

TEST(SmsSegments, UnicodeUsesSeventyAndSixtySeven) {
  std::string seventy;
  for (int i = 0; i < 70; ++i) seventy += "é";
  seventy.replace(0, 2, "û");
  EXPECT_EQ(countSegments(seventy).encoding, SmsEncoding::Ucs2);
  EXPECT_EQ(countSegments(seventy).parts, 1);
  EXPECT_EQ(countSegments(seventy + "é").parts, 2);
  std::string emoji = "🙂";  // outside the BMP: two UTF-16 units
  EXPECT_EQ(countSegments(emoji).characters, 1);
  std::string many;
  for (int i = 0; i < 35; ++i) many += emoji;
  EXPECT_EQ(countSegments(many).parts, 1);
  EXPECT_EQ(countSegments(many + "a").parts, 2);
}

TEST(SmsSegments, InvalidUtf8IsReported) {
  EXPECT_FALSE(countSegments("\xC3").valid_utf8);
  EXPECT_FALSE(countSegments("\xFF\xFE").valid_utf8);
  EXPECT_TRUE(countSegments("").valid_utf8);
  EXPECT_EQ(countSegments("").parts, 0);
}

TEST(PhoneNumbers, E164SyntaxIsStrict) {
  EXPECT_TRUE(E164::parse("+14165550123"));
  EXPECT_FALSE(E164::parse("14165550123"));
  EXPECT_FALSE(E164::parse("+1 416 555 0123"));
  EXPECT_FALSE(E164::parse("+0123456789"));
  EXPECT_FALSE(E164::parse("+1234567890123456"));
}

TEST(PhoneNumbers, CanadianNumbersAreRecognised) {
  EXPECT_TRUE(isCanadianNumber(*E164::parse("+14165550123")));   // Toronto
  EXPECT_TRUE(isCanadianNumber(*E164::parse("+15145550199")));   // Montréal
  EXPECT_TRUE(isCanadianNumber(*E164::parse("+18885550100")));   // toll-free
  EXPECT_FALSE(isCanadianNumber(*E164::parse("+12125550123")));  // New York
  EXPECT_FALSE(isCanadianNumber(*E164::parse("+442071234567")));
}

// Issue 49: a signed message.received claiming 1,000 parts was stored and charged as 1,000.
TEST(SmsSegments, AReceivedTextIsCountedFromItsTextBetweenOneAndTenParts) {
  EXPECT_EQ(receivedParts("Hi"), 1);
  EXPECT_EQ(receivedParts(""), 1) << "an empty text still arrived";
  EXPECT_EQ(receivedParts(std::string(161, 'a')), 2);
  EXPECT_EQ(receivedParts(std::string(5000, 'a')), kMaxParts);
}

// The table the dashboard's count (dashboard/src/sms_parts.ts) is held to as well: the parts a
// customer is shown before sending are the parts the API charges.
TEST(SmsSegments, EveryCaseOfTheTableSharedWithTheDashboardIsCountedAsItSays) {
  std::ifstream file(SMSGW_SMS_PARTS_CASES);
  ASSERT_TRUE(file) << SMSGW_SMS_PARTS_CASES;
  auto table = nlohmann::json::parse(file);
  ASSERT_EQ(table["cases"].size(), 21u);
  for (const auto& entry : table["cases"]) {
    std::string text;
    for (const auto& piece : entry["text"]) {
      for (int i = 0; i < piece[1].get<int>(); ++i) text += piece[0].get<std::string>();
    }
    SegmentCount count = countSegments(text);
    std::string encoding = count.encoding == SmsEncoding::Gsm7 ? "GSM-7" : "UCS-2";
    EXPECT_EQ(encoding, entry["encoding"]) << entry["name"];
    EXPECT_EQ(count.parts, entry["parts"]) << entry["name"];
  }
}
