// What a request's text may hold: JSON nesting, NUL characters, UTF-8, lengths in characters.
#include "api/http/request_text.h"

#include <gtest/gtest.h>

#include "domain/errors.h"

using namespace smsgw;
using namespace smsgw::api;

namespace {

ErrorCode refusalOf(const std::string& raw) {
  try {
    parseJsonBody(raw);
  } catch (const ApiError& error) {
    return error.code();
  }
  ADD_FAILURE() << "accepted: " << raw.substr(0, 80);
  return ErrorCode::INTERNAL_ERROR;
}

std::string nested(int depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

}  // namespace

TEST(RequestText, ParsesOrdinaryBodies) {
  auto body = parseJsonBody(R"({"to":"+15145550100","body":"Allô é"})");
  EXPECT_EQ(body["body"], "Allô é");
}

TEST(RequestText, RefusesNestingDeeperThanTheCap) {
  EXPECT_NO_THROW(parseJsonBody(nested(kMaxJsonDepth)));
  EXPECT_EQ(refusalOf(nested(kMaxJsonDepth + 1)), ErrorCode::FST_ERR_CTP_INVALID_JSON_BODY);
  // The issue's crash: 100,000 brackets inside an events array, about 200 KB.
  std::string attack = R"({"url":"http://127.0.0.1:8090/x","events":[)" + nested(100'000) + "]}";
  EXPECT_EQ(refusalOf(attack), ErrorCode::FST_ERR_CTP_INVALID_JSON_BODY);
  try {
    parseJsonBody(attack);
  } catch (const ApiError& error) {
    EXPECT_EQ(error.details()["reason"], "too_deep");
  }
}

TEST(RequestText, RefusesNulInStringsAndKeysNamingTheField) {
  try {
    parseJsonBody(R"({"rows":[{"ok":"a"},{"name":"a\u0000b"}]})");
    ADD_FAILURE();
  } catch (const ApiError& error) {
    EXPECT_EQ(error.code(), ErrorCode::VALIDATION_ERROR);
    EXPECT_EQ(error.details()[0]["field"], "rows[1].name");
  }
  EXPECT_EQ(refusalOf(R"({"a\u0000":1})"), ErrorCode::VALIDATION_ERROR);
  EXPECT_EQ(refusalOf(R"("\u0000")"), ErrorCode::VALIDATION_ERROR);
}

TEST(RequestText, RefusesWhatIsNotJson) {
  EXPECT_EQ(refusalOf("{\"a\":"), ErrorCode::FST_ERR_CTP_INVALID_JSON_BODY);
}

// Issue 49: text that is not UTF-8 never reaches PostgreSQL; from a client it is a 422.
TEST(RequestText, RefusesABodyThatIsNotUtf8As422) {
  for (const std::string raw : {"{\"name\":\"\xff\"}", "{\"name\":\"Caf\xc3\"}",
                                "{\"name\":\"\xed\xa0\x80\"}", "{\"n\xc3\":1}"}) {
    try {
      parseJsonBody(raw);
      ADD_FAILURE() << "accepted";
    } catch (const ApiError& error) {
      EXPECT_EQ(error.code(), ErrorCode::VALIDATION_ERROR);
      EXPECT_EQ(error.details()[0]["field"], "body");
    }
  }
}

TEST(RequestText, TellsCleanTextFromBytes) {
  EXPECT_TRUE(isCleanText("Montréal\tQC"));
  EXPECT_FALSE(isCleanText("abc\xff"));
  EXPECT_FALSE(isCleanText("a\x01"));
  EXPECT_FALSE(isCleanText(std::string("a\0b", 3)));
  EXPECT_FALSE(isCleanText("\xc3"));          // a cut multi-byte character
  EXPECT_FALSE(isValidUtf8("\xed\xa0\x80"));  // a UTF-16 surrogate
}

TEST(RequestText, CountsCharactersNotBytes) {
  std::string accents;
  for (int i = 0; i < 150; ++i) accents += "é";
  EXPECT_EQ(accents.size(), 300u);
  EXPECT_EQ(utf8Length(accents), 150u);
}

TEST(RequestText, AcceptsOnlyPrintableRequestIds) {
  EXPECT_TRUE(isUsableRequestId("req_abc-123:x.y"));
  EXPECT_FALSE(isUsableRequestId("abc\xff"));
  EXPECT_FALSE(isUsableRequestId("a b"));
  EXPECT_FALSE(isUsableRequestId(""));
  EXPECT_FALSE(isUsableRequestId(std::string(201, 'a')));
}

// The same limit for documents a stranger's server sends (issue 34, item 7): parsed, never
// walked past the cap.
TEST(RequestText, BoundedParsingSaysWhetherADocumentIsTooDeepOrNotJson) {
  EXPECT_EQ(parseBoundedJson(nested(kMaxJsonDepth)).outcome, BoundedJson::Outcome::Parsed);
  EXPECT_EQ(parseBoundedJson(nested(10'000)).outcome, BoundedJson::Outcome::TooDeep);
  EXPECT_TRUE(parseBoundedJson(nested(10'000)).value.is_null());
  EXPECT_EQ(parseBoundedJson("{\"a\":").outcome, BoundedJson::Outcome::NotJson);
  EXPECT_EQ(parseBoundedJson("{\"a\":[1]}").value["a"][0], 1);
  // Brackets inside strings, escaped quotes among them, are text, not nesting.
  std::string brackets = R"({"a":"\")" + nested(100) + R"(\"["})";
  ASSERT_EQ(parseBoundedJson(brackets).outcome, BoundedJson::Outcome::Parsed);
  EXPECT_EQ(parseBoundedJson(brackets).value["a"].get<std::string>().size(), 203u);
  EXPECT_EQ(parseBoundedJson("[" + nested(kMaxJsonDepth) + "]").outcome,
            BoundedJson::Outcome::TooDeep);
  // Wide is not deep: ten thousand objects side by side parse.
  std::string wide = "[";
  for (int i = 0; i < 10'000; ++i) wide += i ? ",{\"n\":[1]}" : "{\"n\":[1]}";
  EXPECT_EQ(parseBoundedJson(wide + "]").value.size(), 10'000u);
}
