#pragma once
// Sends to a number erased at the account's request (services/compliance/erasures.h) that have
// not reached the carrier: cancelled, not sent with a purged body to an anonymized number.

#include <soci/session.h>

#include <string>

#include "domain/clock.h"

namespace smsgw::messaging {

// In the erasure's transaction, before the number is replaced by `token`: every outbound
// message of the account to `phone` still QUEUED and not yet handed over (paced, deferred, or
// waiting for its turn) fails RECIPIENT_ERASED, refunded, with message.failed naming `token`,
// not the number. A message whose hand-off started keeps its status: the carrier may have it.
// Returns how many were cancelled.
int cancelSendsToErasedNumber(soci::session& sql, const std::string& account_id,
                              const std::string& phone, const std::string& token, TimePoint now);

}  // namespace smsgw::messaging
