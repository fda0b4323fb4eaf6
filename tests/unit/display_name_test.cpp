// Names strangers choose for people to read (issue 34, items 3 and 6): an OAuth client's name
// must read as written and not pass for us; a verification's app_name is a brand, not a message.
#include "domain/display_name.h"

#include <gtest/gtest.h>

using namespace smsgw;

TEST(DisplayName, PlainNamesInAnyScriptAreFine) {
  for (const char* name : {"Agenda Bot", "Érable Inc.", "Café Ħ", "日本語アプリ", "Claude"})
    EXPECT_EQ(displayNameProblem(name), DisplayNameProblem::None) << name;
}

TEST(DisplayName, HiddenCharactersAreRefused) {
  for (const char* name : {"Claude\u202eppa.lieve", "Zero\u200bWidth", "Joiner\u2060x", "Bell\x07",
                           "Tab\tName", "Line\u2028Break", "Private\ue000Use"})
    EXPECT_EQ(displayNameProblem(name), DisplayNameProblem::HiddenCharacter) << name;
  EXPECT_EQ(displayNameProblem("bad \xff utf8"), DisplayNameProblem::NotText);
}

TEST(DisplayName, NamesThatPassForUsAreRefusedInLookalikeSpellingsToo) {
  for (const char* name : {"SMS Gateway Official Support", "sms-gateway", "SMSGW Billing",
                           "Official App", "SMS Gatew\u0430y" /* Cyrillic a */, "0fficial"})
    EXPECT_EQ(displayNameProblem(name), DisplayNameProblem::ClaimsToBeUs) << name;
}

TEST(BrandName, BrandsPassAndMessagesOrLinksDoNot) {
  for (const char* name :
       {"Érable Inc.", "A&W", "L'Oréal", "L’Oréal", "Co-op 24", "St. Hubert", "Banque Nationale"})
    EXPECT_TRUE(isBrandName(name)) << name;
  for (const char* name :
       {"SALE 50% bit.ly/x", "shop.example", "Visit shop.example", "50%", "Call now!", "https://x",
        "Two  spaces", " Leading", "Trailing ", "1234", "a\u202eb", ""})
    EXPECT_FALSE(isBrandName(name)) << name;
}
