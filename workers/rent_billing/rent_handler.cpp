#include "workers/rent_billing/rent_handler.h"

#include "services/numbers/release.h"
#include "services/numbers/rent.h"
#include "topics/records.h"

namespace smsgw::workers {

topics::Outcome RentHandler::operator()(const topics::Record& record) {
  auto work = topics::BillingRent::parse(record.payload);
  auto as_of = parseIso(work.as_of);
  if (!as_of) throw topics::PermanentError("unreadable as_of " + work.as_of);
  bool changed = false;
  if (work.action == "collect") {
    changed =
        numbers::collectRent(context_.db, work.phone_number_id, work.period, *as_of,
                             context_.clock.now(), settings_) != numbers::RentOutcome::NothingDue;
  } else {
    // A carrier that cannot be reached leaves the number RELEASING; the billing pass retries.
    auto released = numbers::releaseExpiredSuspension(context_.db, carrier_, work.phone_number_id,
                                                      *as_of, context_.clock.now());
    changed = released.kind != numbers::ReleaseResult::Kind::NotReleasable;
  }
  context_.relay.notify();
  return changed ? topics::Outcome::done() : topics::Outcome::unchanged();
}

}  // namespace smsgw::workers
