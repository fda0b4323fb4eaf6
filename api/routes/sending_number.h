#pragma once
// Whether a LIVE text may leave from one of the account's numbers: the account holds it, it is
// not suspended for unpaid rent, and a toll-free number's verification is APPROVED.

#include <soci/session.h>

#include <string>

#include "domain/phone.h"

namespace smsgw::api {

// Throws ApiError PHONE_NUMBER_NOT_OWNED, PHONE_NUMBER_SUSPENDED or FORBIDDEN
// (details.reason toll_free_verification_not_approved).
void requireLiveSendingNumber(soci::session& sql, const std::string& account_id, const E164& from);

}  // namespace smsgw::api
