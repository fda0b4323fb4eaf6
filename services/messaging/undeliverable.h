#pragma once
// The undeliverable-number counter (UNDELIVERABLE_NUMBER): carrier failures in a row for one
// destination, across every customer. LIVE traffic only: TEST sends never reach a carrier.

#include <soci/session.h>

#include <string>

#include "domain/clock.h"

namespace smsgw::messaging {

// One more failure in a row at `now` (the SQL function count_carrier_failure). When a failure
// counts is decided in C++ (decideHandoff, followUpOf); the counter's arithmetic is SQL alone:
// count_carrier_failure adds, apply_carrier_receipt clears on a delivery, is_undeliverable
// judges (read by a send's destination check, known_destination).
void recordCarrierFailure(soci::session& sql, const std::string& number, const std::string& code,
                          TimePoint now);

}  // namespace smsgw::messaging
