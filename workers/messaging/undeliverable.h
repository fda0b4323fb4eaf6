#pragma once
// The undeliverable-number counter (UNDELIVERABLE_NUMBER): carrier failures in a row for one
// destination, across every customer. LIVE traffic only: TEST sends never reach a carrier.

#include <soci/session.h>

#include <string>

#include "domain/send_policy.h"

namespace smsgw::workers {

void recordCarrierFailure(soci::session& sql, const std::string& number, const std::string& code);
void recordCarrierDelivery(soci::session& sql, const std::string& number);
// The rule, as a SQL condition for a send's destination read to embed (one round trip on the hot
// path). It binds, in order: the number, policy.undeliverable_failures, policy.undeliverable_days.
extern const char* const kUndeliverableCondition;

}  // namespace smsgw::workers
