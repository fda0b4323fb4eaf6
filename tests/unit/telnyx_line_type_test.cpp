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

// Issue 50: a number Telnyx lists is not always one it holds for us. Its document's statuses
// (team-telnyx/openapi, spec3.yml at 12de4dd, PhoneNumberDetailed.status), each in its place.
TEST(TelnyxNumberStatus, EveryPublishedStatusHasItsPlace) {
  for (const char* held : {"active", "emergency-only", "port-out-pending"})
    EXPECT_EQ(holdingOfTelnyx(held), NumberHolding::Held) << held;
  for (const char* gone : {"deleted", "purchase-failed", "port-failed", "ported-out"})
    EXPECT_EQ(holdingOfTelnyx(gone), NumberHolding::NotHeld) << gone;
  for (const char* open : {"purchase-pending", "port-pending", "", "a word Telnyx adds later"})
    EXPECT_EQ(holdingOfTelnyx(open), NumberHolding::Unknown) << open;
}
