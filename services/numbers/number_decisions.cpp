#include "services/numbers/number_decisions.h"

namespace smsgw::numbers {

bool rentIsDue(const RentStanding& number, int period, TimePoint as_of) {
  return number.status == "ACTIVE" && number.periods_paid + 1 == period &&
         number.next_due_at <= as_of;
}

AfterRent afterRent(bool paid, TimePoint next_due, TimePoint as_of) {
  if (!paid) return AfterRent::Suspend;
  return next_due <= as_of ? AfterRent::PaidAndNextDue : AfterRent::Paid;
}

ReleaseVerdict judgeRelease(NumberOperation::Kind answer, std::optional<NumberHolding> holding) {
  using Kind = NumberOperation::Kind;
  switch (answer) {
    case Kind::Done:
    case Kind::NotHeld:
      return ReleaseVerdict::Released;
    case Kind::Refused:
      return ReleaseVerdict::StillHeld;
    case Kind::Pending:  // not an answer a release gets; judged like no answer
    case Kind::Failed:
      break;
  }
  if (holding == NumberHolding::NotHeld) return ReleaseVerdict::Released;
  if (holding == NumberHolding::Held) return ReleaseVerdict::StillHeld;
  return ReleaseVerdict::Pending;
}

}  // namespace smsgw::numbers
