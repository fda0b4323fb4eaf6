#pragma once
// The billing pass: finds, in PostgreSQL, the numbers whose rent is due or whose suspension's
// grace period ended by `as_of`, and publishes one billing.rent record for each (through the
// outbox, keyed by number id) for the rent-billing workers to handle. Rows are claimed with
// FOR UPDATE SKIP LOCKED and stamped, so concurrent passes never publish a number twice; a
// record the broker lost is published again after `republish_after`. The pass also settles
// purchases and releases a crash or an unreachable carrier left unfinished.
// The rent-billing worker runs it on a timer; `smsgw-admin rent run --as-of` runs it by hand.

#include <chrono>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/carrier_client.h"
#include "domain/clock.h"

namespace smsgw::numbers {

struct BillingPassOptions {
  TimePoint as_of;                        // what is due is decided as of this time
  TimePoint now;                          // real time, for settling interrupted work
  std::optional<std::string> account_id;  // only this account's numbers and purchases (staff)
  std::chrono::seconds republish_after{600};
  std::chrono::seconds stale_after{120};  // purchases and releases older than this are settled
};

struct BillingPassReport {
  int rent_due = 0;       // collect records published
  int grace_expired = 0;  // expire records published
  int purchases_settled = 0;
  int releases_finished = 0;
  int releases_in_doubt = 0;  // still RELEASING after this pass asked the carrier again
};

BillingPassReport runBillingPass(db::Database& db, CarrierClient& carrier,
                                 const BillingPassOptions& options);

// The numbers (of one account, or all) a pass published a record for, due as of `as_of`, that
// no rent-billing worker has handled yet: a staff run waits for none.
int rentRecordsOutstanding(db::Database& db, TimePoint as_of,
                           const std::optional<std::string>& account_id);

}  // namespace smsgw::numbers
