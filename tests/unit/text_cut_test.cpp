// Cutting text by the characters a reader sees, never inside one, and keeping it valid UTF-8
// (issue 49: a byte cut of "é" made a STOP's reply that PostgreSQL refused).
#include "domain/text_cut.h"

#include <gtest/gtest.h>

using namespace smsgw;

namespace {

std::string repeated(std::string_view piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

}  // namespace

TEST(TextCut, KeepsShortTextWhole) {
  EXPECT_EQ(cutToCharacters("Érable Inc.", 40), "Érable Inc.");
  EXPECT_EQ(cutToCharacters("", 40), "");
  EXPECT_EQ(cutToCharacters("abc", 0), "");
}

TEST(TextCut, CountsAnAccentedLetterAsOneCharacterNotTwoBytes) {
  std::string name = repeated("A", 39) + "é Co";  // the name: é across byte 40
  EXPECT_EQ(cutToCharacters(name, 40), repeated("A", 39) + "é");
  EXPECT_EQ(characterCount(repeated("é", 50)), 50u);
  EXPECT_EQ(cutToCharacters(repeated("é", 50), 40), repeated("é", 40));
}

TEST(TextCut, NeverSeparatesACombiningMarkFromItsLetter) {
  std::string decomposed = "e\xCC\x81";  // e + U+0301 COMBINING ACUTE ACCENT
  std::string name = repeated("A", 39) + decomposed + "cole";
  EXPECT_EQ(cutToCharacters(name, 40), repeated("A", 39) + decomposed);
  EXPECT_EQ(cutToCharacters(name, 39), repeated("A", 39));
  EXPECT_EQ(characterCount("e\xCC\x81\xCC\xA7"), 1u) << "two marks on one letter";
}

TEST(TextCut, KeepsEmojiFlagsAndFamiliesWhole) {
  std::string maple = "\xF0\x9F\x8D\x81";                 // U+1F341, four bytes
  std::string flag = "\xF0\x9F\x87\xA8\xF0\x9F\x87\xA6";  // 🇨🇦: two regional indicators
  std::string family = "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7";  // 👩‍👧 with a ZWJ
  EXPECT_EQ(cutToCharacters(repeated("A", 39) + maple + "x", 40), repeated("A", 39) + maple);
  EXPECT_EQ(cutToCharacters(repeated("A", 39) + flag + "x", 40), repeated("A", 39) + flag);
  EXPECT_EQ(cutToCharacters(repeated("A", 39) + family + "x", 40), repeated("A", 39) + family);
  EXPECT_EQ(characterCount(flag + family + maple), 3u);
}

TEST(TextCut, CutsChineseJapaneseAndKoreanByCharacter) {
  std::string cjk = repeated("\xE6\xBC\xA2", 50);  // 漢, three bytes each
  EXPECT_EQ(cutToCharacters(cjk, 40), repeated("\xE6\xBC\xA2", 40));
  std::string hangul = "\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB";  // 한 as three conjoining jamo
  EXPECT_EQ(characterCount(hangul), 1u);
}

TEST(TextCut, AlwaysGivesValidUtf8) {
  EXPECT_FALSE(isValidUtf8("abc\xC3"));
  EXPECT_FALSE(isValidUtf8("\xED\xA0\x80"));  // a UTF-16 surrogate
  EXPECT_TRUE(isValidUtf8("Montréal 🍁"));
  EXPECT_EQ(validUtf8("a\xFF"
                      "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(cutToCharacters("ab\xC3", 40), "ab\xEF\xBF\xBD");
  for (size_t n = 0; n < 12; ++n) {
    std::string cut = cutToCharacters("Jérôme 🇨🇦 漢e\xCC\x81", n);
    EXPECT_TRUE(isValidUtf8(cut)) << n;
    EXPECT_EQ(characterCount(cut), std::min<size_t>(n, 11)) << n;
  }
}
