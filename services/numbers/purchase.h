#pragma once
// Buying a phone number: charge, order from the carrier, settle.
//
// The charge (first month's rent plus the activation fee, one ledger row) commits with a
// PENDING purchase before the carrier is asked, so the money is never spent twice: a second
// purchase of the same account while one is PENDING is refused (PURCHASE_IN_PROGRESS), and
// the refund or the number commits with the purchase's final state. A purchase a crash left
// PENDING is settled later by asking the carrier whether it holds the number
// (settleStalePurchases). Every function is safe to call from several threads and processes.

#include <optional>
#include <string>

#include "db/database.h"
#include "domain/carrier_client.h"
#include "domain/clock.h"
#include "domain/phone.h"

namespace smsgw::numbers {

struct PurchaseOutcome {
  enum class Kind {
    Completed,  // the number is the account's: phone_number_id is set
    Failed,     // the carrier did not sell it; the charge was refunded
    Pending,    // the carrier's order is pending, or its answer was lost; the billing pass
                // settles it when the carrier's order settles
  };
  Kind kind = Kind::Pending;
  std::string purchase_id;
  std::string phone_number_id;
  std::string carrier_code;  // Failed: the carrier's code, when it gave one
  std::string detail;
  std::string pending_reason;  // Pending: order_pending or carrier_unreachable
  long long charged_cents = 0;
};

// Throws ApiError before anything is charged: PURCHASE_IN_PROGRESS, CONFLICT (already held),
// NUMBER_LIMIT_REACHED, INSUFFICIENT_BALANCE. The caller has validated the number.
PurchaseOutcome purchaseNumber(db::Database& db, CarrierClient& carrier,
                               const std::string& account_id, const E164& number, TimePoint now);

// Settles purchases PENDING for longer than `stale_after` at `now`, of one account when given;
// returns how many were settled.
int settleStalePurchases(db::Database& db, CarrierClient& carrier, std::chrono::seconds stale_after,
                         TimePoint now, const std::optional<std::string>& account_id = {});

}  // namespace smsgw::numbers
