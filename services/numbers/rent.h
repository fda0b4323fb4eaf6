#pragma once
// Monthly rent: collecting one period of one number, suspending it when the balance cannot
// cover it, and reactivating suspended numbers when money arrives. Each function works in the
// caller's transaction, so the ledger row, the number's state and its event commit together.
// The ledger reference "<number id>/<period>" is unique: one rent row per number per period.

#include <soci/session.h>

#include <chrono>
#include <string>

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::numbers {

struct RentSettings {
  std::chrono::hours grace_period{24 * 7};  // suspension to release (RENT_GRACE_DAYS)
};

enum class RentOutcome {
  Collected,   // the period is paid; the next due date moved on
  Suspended,   // the balance could not cover it: SUSPENDED, phone_number.suspended raised
  NothingDue,  // not ACTIVE, that period already settled, or not due by as_of (a replay)
};

// Collects rent period `period` of a number as of `as_of`. When later periods are due by
// `as_of` too (a pass run long after the due date), the next one is queued on billing.rent,
// stamped with the real time `now` (the billing pass republishes what stays unhandled).
RentOutcome collectRent(soci::session& sql, const std::string& number_id, int period,
                        TimePoint as_of, TimePoint now, const RentSettings& settings);
// The same in a transaction of its own.
RentOutcome collectRent(db::Database& db, const std::string& number_id, int period, TimePoint as_of,
                        TimePoint now, const RentSettings& settings);

// Collects what the account's SUSPENDED numbers owe, oldest suspension (then oldest number)
// first, while the
// balance covers it and their grace period has not ended at `now`; each paid number is
// ACTIVE again. For top-ups and staff credits. Returns how many were reactivated.
int reactivateSuspended(soci::session& sql, const std::string& account_id, TimePoint now);

}  // namespace smsgw::numbers
