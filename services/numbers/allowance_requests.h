#pragma once
// Allowance requests: an account asks for a higher phone-number limit; staff decide with
// smsgw-admin. One PENDING request at a time, three a day (rolling 24 hours).

#include <nlohmann/json.hpp>
#include <string>

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::numbers {

inline constexpr int kAllowanceRequestsPerDay = 3;
inline constexpr long long kMaxRequestedLimit = 10'000;

// The account's requests, newest first.
nlohmann::json allowanceRequests(db::Database& db, const std::string& account_id);
// The new PENDING request. Throws ApiError INVALID_ALLOWANCE_REQUEST (not above the current
// limit), ALLOWANCE_REQUEST_PENDING or RATE_LIMITED (with Retry-After).
nlohmann::json requestAllowance(db::Database& db, const std::string& account_id, int requested,
                                const std::string& reason, TimePoint now);

}  // namespace smsgw::numbers
