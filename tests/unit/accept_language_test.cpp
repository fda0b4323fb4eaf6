#include <gtest/gtest.h>

#include "domain/locale.h"

using smsgw::Language;
using smsgw::preferredLanguage;

TEST(AcceptLanguage, DefaultsToEnglish) {
  EXPECT_EQ(preferredLanguage(""), Language::English);
  EXPECT_EQ(preferredLanguage("de-DE"), Language::English);
  EXPECT_EQ(preferredLanguage("garbage;;;,,"), Language::English);
}

TEST(AcceptLanguage, PicksFrenchWhenItLeads) {
  EXPECT_EQ(preferredLanguage("fr"), Language::French);
  EXPECT_EQ(preferredLanguage("fr-CA"), Language::French);
  EXPECT_EQ(preferredLanguage("FR-ca, en;q=0.8"), Language::French);
  EXPECT_EQ(preferredLanguage("en;q=0.5, fr;q=0.9"), Language::French);
  EXPECT_EQ(preferredLanguage("de, fr;q=0.7"), Language::French);
}

TEST(AcceptLanguage, HonoursQualityValues) {
  EXPECT_EQ(preferredLanguage("fr;q=0.4, en;q=0.9"), Language::English);
  EXPECT_EQ(preferredLanguage("en-CA, fr-CA;q=0.9"), Language::English);
  EXPECT_EQ(preferredLanguage("fr;q=0"), Language::English);
  EXPECT_EQ(preferredLanguage("fr;q=abc"), Language::English);
  EXPECT_EQ(preferredLanguage("*;q=0.5, fr;q=0.6"), Language::French);
}

TEST(AcceptLanguage, EqualWeightsKeepEnglish) {
  EXPECT_EQ(preferredLanguage("fr, en"), Language::English);
}
