// A carrier's 429: the wait it asks for, read from its headers, and the hold it puts on the
// sender's hand-offs.
#include "domain/carrier_hold.h"

#include <gtest/gtest.h>

#include "adapters/http_carrier_client.h"

using namespace smsgw;
using std::chrono::seconds;

TEST(CarrierWait, TelnyxsResetIsReadFirstThenRetryAfter) {
  std::string reset = "17", retry_after = "5", words = "Wed, 21 Oct 2026 07:28:00 GMT";
  EXPECT_EQ(waitAskedByCarrier(&reset, &retry_after), seconds(17));
  EXPECT_EQ(waitAskedByCarrier(nullptr, &retry_after), seconds(5));
  EXPECT_EQ(waitAskedByCarrier(&words, &retry_after), seconds(5)) << "a reset that is no number";
  EXPECT_EQ(waitAskedByCarrier(nullptr, &words), seconds(0)) << "a date is not read";
  EXPECT_EQ(waitAskedByCarrier(nullptr, nullptr), seconds(0));
  std::string negative = "-3", fraction = "2.5", empty;
  EXPECT_EQ(waitAskedByCarrier(&negative, nullptr), seconds(0));
  EXPECT_EQ(waitAskedByCarrier(&fraction, nullptr), seconds(0));
  EXPECT_EQ(waitAskedByCarrier(&empty, nullptr), seconds(0));
}

TEST(CarrierHold, HoldsForTheWaitAskedThenLetsGo) {
  CarrierHold hold;
  TimePoint now = parseIso("2027-01-10T10:00:00Z").value();
  EXPECT_FALSE(hold.heldUntil(now)) << "nothing asked yet";
  hold.holdFor(now, seconds(30));
  EXPECT_EQ(hold.heldUntil(now + seconds(29)), now + seconds(30));
  EXPECT_FALSE(hold.heldUntil(now + seconds(30))) << "over when the window resets";
}

TEST(CarrierHold, AnUnsaidWaitIsShortAndALongOneIsCapped) {
  CarrierHold hold;
  TimePoint now = parseIso("2027-01-10T10:00:00Z").value();
  hold.holdFor(now, seconds(0));
  EXPECT_EQ(hold.heldUntil(now), now + CarrierHold::kUnsaid);
  hold.holdFor(now, seconds(86400));
  EXPECT_EQ(hold.heldUntil(now), now + CarrierHold::kLongest) << "a wrong header stops little";
  // The same clamp is the Retry-After passed on to a client (an owner-phone code).
  EXPECT_EQ(CarrierHold::waitFor(seconds(-3)), CarrierHold::kUnsaid);
  EXPECT_EQ(CarrierHold::waitFor(seconds(7)), seconds(7));
  EXPECT_EQ(CarrierHold::waitFor(seconds(3600)), CarrierHold::kLongest);
}

TEST(CarrierHold, AShorterLaterHoldDoesNotCutALongerOneShort) {
  CarrierHold hold;
  TimePoint now = parseIso("2027-01-10T10:00:00Z").value();
  hold.holdFor(now, seconds(40));
  hold.holdFor(now + seconds(1), seconds(2));  // another loop's 429, answered with less
  EXPECT_EQ(hold.heldUntil(now + seconds(5)), now + seconds(40));
}
