#pragma once
// Reading the numbers an account holds, as the API renders them (the SQL function
// api_phone_number), and what buying or releasing one first asks. Another account's number is
// 403, an unknown one 404.

#include <nlohmann/json.hpp>
#include <string>

#include "db/database.h"
#include "domain/caller.h"

namespace smsgw::numbers {

// Every number not RELEASED, newest first.
nlohmann::json heldNumbers(db::Database& db, const std::string& account_id);
nlohmann::json phoneNumber(db::Database& db, const Caller& caller, const std::string& id);
nlohmann::json phoneNumber(db::Database& db, const std::string& id);  // already checked
// The number's status, after checking it is the caller's.
std::string ownedNumberStatus(db::Database& db, const Caller& caller, const std::string& id);
// ACCOUNT_NOT_VERIFIED unless the owner's phone was verified: a number is bought only then.
void requireVerifiedOwner(db::Database& db, const std::string& account_id);

}  // namespace smsgw::numbers
