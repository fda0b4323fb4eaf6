#pragma once
// Staff's side of allowance requests (allowance_requests.h is the account's): every account's
// requests, and the decision on a PENDING one. smsgw-admin parses, calls these and prints.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::numbers {

// Requests of any account, newest first, at most 200, each with its account_id; an empty
// status or account matches any.
nlohmann::json allowanceRequestsForStaff(db::Database& db, const std::string& status,
                                         const std::string& account_id);

struct AllowanceDecision {
  bool approve = false;
  std::optional<int> granted_limit;  // approval: default the requested limit
  std::string note;                  // shown to the account; empty: none
};

struct DecidedAllowance {
  nlohmann::json request;  // the AllowanceRequest as the API shows it
  std::string account_id;
  std::string email;  // the account's, to tell it
  int requested = 0;
  int granted = 0;
};

// Decides a PENDING request as of `now`; an approval raises the account's phone_number_limit
// to the granted limit, never lowering it. None when there is no PENDING request `id`; throws
// std::invalid_argument for an approval of fewer than 1 number.
std::optional<DecidedAllowance> decideAllowanceRequest(db::Database& db, const std::string& id,
                                                       const AllowanceDecision& decision,
                                                       TimePoint now);

}  // namespace smsgw::numbers
