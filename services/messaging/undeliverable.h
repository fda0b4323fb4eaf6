#pragma once
// The undeliverable-number counter (UNDELIVERABLE_NUMBER): carrier failures in a row for one
// destination, across every customer. LIVE traffic only: TEST sends never reach a carrier.

#include <soci/session.h>

#include <string>

namespace smsgw::messaging {

void recordCarrierFailure(soci::session& sql, const std::string& number, const std::string& code);
// A delivery clears the run; apply_carrier_receipt (migration 0008) does that in SQL.
// The rule itself is the SQL function is_undeliverable (migration 0006), read by a send's
// destination check (known_destination).

}  // namespace smsgw::messaging
