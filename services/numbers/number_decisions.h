#pragma once
// What the rent-billing worker and number releases decide, apart from what they read and write
// (rent.cpp, release.cpp). Pure; unit-tested in tests/unit/number_decisions_test.cpp.

#include <optional>
#include <string>

#include "domain/carrier_client.h"
#include "domain/clock.h"

namespace smsgw::numbers {

// A rented number as a rent record finds it.
struct RentStanding {
  std::string status;  // ACTIVE, SUSPENDED, RELEASING, RELEASED
  int periods_paid = 0;
  TimePoint next_due_at;
};

// Whether period `period` is owed as of `as_of`: the number is ACTIVE, the period is the next
// one and it has come. Anything else is a replay or a record overtaken by events.
bool rentIsDue(const RentStanding& number, int period, TimePoint as_of);

enum class AfterRent {
  Suspend,         // the balance could not cover it
  Paid,            // paid; the next period is not due yet
  PaidAndNextDue,  // paid, and the following period is due already (a late pass catching up)
};
AfterRent afterRent(bool paid, TimePoint next_due, TimePoint as_of);

enum class ReleaseVerdict {
  Released,   // the carrier no longer holds it
  StillHeld,  // the carrier refused: the number goes back to the status it had
  Pending,    // unknown: stays RELEASING, asked again later
};
// From the carrier's answer to the release, and, when that answer was lost (Failed), from
// asking whether it still holds the number.
ReleaseVerdict judgeRelease(NumberOperation::Kind answer, std::optional<NumberHolding> holding);

}  // namespace smsgw::numbers
