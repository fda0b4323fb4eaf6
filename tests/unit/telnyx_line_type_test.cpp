// Telnyx's number lookup line types as ours: only what surely cannot take a text is refused
// (NOT_A_MOBILE_NUMBER); what may take one is let through as unknown.
#include <gtest/gtest.h>

#include "adapters/http_carrier_client.h"

using namespace smsgw;

TEST(TelnyxLineType, EveryPublishedTypeHasItsPlace) {
  EXPECT_EQ(lineTypeOfTelnyx("mobile"), LineType::Mobile);
  EXPECT_EQ(lineTypeOfTelnyx("voip"), LineType::Voip);
  for (const char* no_texts :
       {"fixed line", "pager", "voicemail", "premium rate", "shared cost", "uan"})
    EXPECT_EQ(lineTypeOfTelnyx(no_texts), LineType::Landline) << no_texts;
  for (const char* maybe :
       {"fixed line or mobile", "toll free", "personal number", "unknown", "", "satellite"})
    EXPECT_EQ(lineTypeOfTelnyx(maybe), LineType::Unknown) << maybe;
  EXPECT_EQ(lineTypeOfTelnyx("landline"), LineType::Unknown) << "not a word Telnyx uses";
}
