// Reading subscribers' replies (STOP, START, HELP, YES, in English and French) and when
// implied consent lapses.
#include "domain/casl.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "domain/text_cut.h"

using namespace smsgw;

namespace {

Keyword keywordOf(const char* text) {
  return readKeyword(text).keyword;
}

TimePoint at(const char* iso) {
  return *parseIso(iso);
}

}  // namespace

TEST(Keywords, EveryStopWordOptsOut) {
  for (const char* text : {"STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "ARRET"}) {
    EXPECT_EQ(keywordOf(text), Keyword::Stop) << text;
  }
}

TEST(Keywords, CaseSpacesAndPunctuationDoNotMatter) {
  for (const char* text : {"stop", "Stop", "  stop  ", "\n\tSTOP", "stop!", "STOP.", "¡Stop!",
                           "stop 🙏", "Stop please", "STOP\r\n"}) {
    EXPECT_EQ(keywordOf(text), Keyword::Stop) << text;
  }
}

TEST(Keywords, OnlyTheFirstWordDecides) {
  EXPECT_EQ(keywordOf("please stop"), Keyword::None);
  EXPECT_EQ(keywordOf("Don't stop"), Keyword::None);
  EXPECT_EQ(keywordOf("stopping by later"), Keyword::None);
  EXPECT_EQ(keywordOf("ST OP"), Keyword::None);
  EXPECT_EQ(keywordOf(""), Keyword::None);
  EXPECT_EQ(keywordOf("   "), Keyword::None);
}

TEST(Keywords, FrenchWordsAreReadWithOrWithoutAccentsAndAnsweredInFrench) {
  for (const char* text : {"ARRET", "arrêt", "Arrêt!", "ARRÊT merci"}) {
    KeywordReply reply = readKeyword(text);
    EXPECT_EQ(reply.keyword, Keyword::Stop) << text;
    EXPECT_TRUE(reply.french) << text;
  }
  EXPECT_EQ(readKeyword("aide").keyword, Keyword::Help);
  EXPECT_TRUE(readKeyword("aide").french);
  EXPECT_FALSE(readKeyword("help").french);
  EXPECT_FALSE(readKeyword("stop").french);
  EXPECT_EQ(readKeyword("Oui").keyword, Keyword::Yes);
}

TEST(Keywords, StartHelpAndYes) {
  EXPECT_EQ(keywordOf("start"), Keyword::Start);
  EXPECT_EQ(keywordOf("UNSTOP"), Keyword::Start);
  EXPECT_EQ(keywordOf("help"), Keyword::Help);
  EXPECT_EQ(keywordOf("Info?"), Keyword::Help);
  EXPECT_EQ(keywordOf("yes"), Keyword::Yes);
  EXPECT_EQ(keywordOf("Yes!!"), Keyword::Yes);
  EXPECT_EQ(keywordOf("yesterday"), Keyword::None);
}

TEST(Keywords, TheWholeReplyIsTrimmedAndUppercased) {
  EXPECT_EQ(readKeyword("  stop please \n").whole_reply, "STOP PLEASE");
  EXPECT_EQ(readKeyword("arrêt s'il vous plaît").whole_reply, "ARRÊT S'IL VOUS PLAÎT");
  EXPECT_EQ(readKeyword("Stop").whole_reply, "STOP");
}

TEST(ImpliedConsent, LastsTwoYearsFromTheLastTransaction) {
  EXPECT_EQ(formatIso(impliedConsentExpiry(std::nullopt, at("2025-03-10"), at("2026-11-22"))),
            "2027-03-10T00:00:00.000Z");
}

TEST(ImpliedConsent, WithoutATransactionItLastsTwoYearsFromTheGrant) {
  EXPECT_EQ(
      formatIso(impliedConsentExpiry(std::nullopt, std::nullopt, at("2026-11-22T15:04:05.123Z"))),
      "2028-11-22T15:04:05.123Z");
}

TEST(ImpliedConsent, ALeapDayTransactionLapsesOnTheLastDayOfFebruary) {
  EXPECT_EQ(formatIso(impliedConsentExpiry(std::nullopt, at("2028-02-29"), at("2028-03-01"))),
            "2030-02-28T00:00:00.000Z");
}

TEST(ImpliedConsent, AnExplicitExpiryWins) {
  EXPECT_EQ(formatIso(impliedConsentExpiry(at("2026-12-31T23:59:59Z"), at("2026-01-01"),
                                           at("2026-06-01"))),
            "2026-12-31T23:59:59.000Z");
}

TEST(AutoReplies, ConfirmStopStartAndHelpInTheSubscribersLanguage) {
  EXPECT_EQ(autoReplyText(readKeyword("stop"), "Érable Inc."),
            "Érable Inc.: You are unsubscribed and will receive no more messages from this "
            "number. Reply START to resubscribe.");
  EXPECT_TRUE(
      autoReplyText(readKeyword("arrêt"), "Érable").starts_with("Érable : Vous êtes désabonné"));
  EXPECT_TRUE(autoReplyText(readKeyword("aide"), "Érable").find("ARRET") != std::string::npos);
  EXPECT_TRUE(autoReplyText(readKeyword("HELP"), "Shop").starts_with("Shop: Reply STOP"));
  EXPECT_TRUE(
      autoReplyText(readKeyword("start"), "Shop").starts_with("Shop: You are resubscribed"));
  EXPECT_EQ(autoReplyText(readKeyword("yes"), "Shop"), "");
  EXPECT_EQ(autoReplyText(readKeyword("hello"), "Shop"), "");
}

TEST(AutoReplies, TheBrandIsCutToFortyCharacters) {
  std::string long_brand(200, 'x');
  for (const char* text : {"stop", "arret", "start", "help", "aide"}) {
    std::string reply = autoReplyText(readKeyword(text), long_brand);
    EXPECT_EQ(reply.substr(0, 41).find_first_not_of('x'), 40u) << text;
  }
}

// Issue 49: a name cut by bytes across "é" made every reply invalid UTF-8, PostgreSQL refused
// it, and the STOP was lost with it. Each keyword's reply and each opt-in request, for each kind
// of name, is valid UTF-8 and opens with the name's first 40 characters.
TEST(AutoReplies, EveryReplyIsValidTextSignedWithTheNamesFirstFortyCharacters) {
  std::string a39(39, 'A');
  const std::vector<std::pair<std::string, std::string>> names = {
      {"accent at the cut", a39 + "é Co"},
      {"a real one", "Clinique médicale Saint-Jérôme-de-l'Île-Perrot inc."},
      {"combining mark at the cut", a39 + "e\xCC\x81"
                                          "cole"},
      {"emoji at the cut", a39 + "\xF0\x9F\x8D\x81 Sirop"},
      {"flag at the cut", a39 + "\xF0\x9F\x87\xA8\xF0\x9F\x87\xA6"},
      {"Chinese", std::string(30, 'B') + "\xE6\xBC\xA2\xE5\xAD\x97\xE5\x95\x86\xE5\xBA\x97" +
                      "\xE6\xBC\xA2\xE5\xAD\x97\xE5\x95\x86\xE5\xBA\x97\xE6\xBC\xA2\xE5\xAD\x97"},
  };
  for (const auto& [kind, name] : names) {
    std::string expected_name = cutToCharacters(name, kSignatureCharacters);
    ASSERT_EQ(characterCount(expected_name), 40u) << kind;
    for (const char* keyword : {"stop", "arret", "start", "unstop", "help", "aide", "info"}) {
      std::string reply = autoReplyText(readKeyword(keyword), name);
      EXPECT_TRUE(isValidUtf8(reply)) << kind << ", " << keyword;
      EXPECT_TRUE(reply.starts_with(expected_name)) << kind << ", " << keyword << ": " << reply;
    }
    for (const char* language : {"en", "fr"}) {
      std::string request = optInRequestText(name, language);
      EXPECT_TRUE(isValidUtf8(request)) << kind << ", " << language;
      EXPECT_TRUE(request.starts_with(expected_name)) << kind << ", " << language;
    }
  }
}

TEST(AutoReplies, ANameCutBeforeASpaceLeavesNoSpaceBeforeTheColon) {
  std::string name = std::string(39, 'A') + " Co";
  EXPECT_TRUE(autoReplyText(readKeyword("help"), name).starts_with(std::string(39, 'A') + ": "));
}

// Issue 49, item 6: texts to third parties are signed with a checked name or with none.
TEST(AutoReplies, AreSignedWithTheSenderNameElseABrandLikeAccountNameElseNothing) {
  EXPECT_EQ(textSignature("Whatever the name", std::string("Érable")), "Érable");
  EXPECT_EQ(textSignature("Érable Inc.", std::nullopt), "Érable Inc.");
  EXPECT_EQ(textSignature("Free money at bit.ly/x", std::nullopt), "");
  EXPECT_EQ(textSignature("Prix: 5 $ — rappelez", std::nullopt), "");
  EXPECT_EQ(textSignature("Evil\xE2\x80\xAEtxt.exe", std::nullopt), "") << "a bidi override";
  EXPECT_EQ(autoReplyText(readKeyword("stop"), ""),
            "You are unsubscribed and will receive no more messages from this number. Reply "
            "START to resubscribe.");
  EXPECT_EQ(autoReplyText(readKeyword("aide"), "").substr(0, 9), "Répondez");
  EXPECT_EQ(optInRequestText("", "en").substr(0, 9), "Reply YES");
}
