#pragma once
// The undeliverable-number counter (UNDELIVERABLE_NUMBER): carrier failures in a row for one
// destination, across every customer. LIVE traffic only: TEST sends never reach a carrier.

#include <soci/session.h>

#include <string>

#include "domain/send_policy.h"

namespace smsgw::workers {

void recordCarrierFailure(soci::session& sql, const std::string& number, const std::string& code);
void recordCarrierDelivery(soci::session& sql, const std::string& number);
bool isUndeliverable(soci::session& sql, const std::string& number, const SendPolicy& policy);

}  // namespace smsgw::workers
