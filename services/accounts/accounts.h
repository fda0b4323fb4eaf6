#pragma once
// Accounts: signup, the account document, profile changes and the ledger's pages. An email
// address belongs to one account, compared without case.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::accounts {

struct Signup {
  std::string name;
  std::string email;
  std::string password;  // hashed here, never stored
  std::string terms_version;
};
// {account, api_keys}: the new account (PENDING_PAYMENT) with one TEST and one LIVE key, their
// secrets shown this once. Throws ApiError CONFLICT (email_taken).
nlohmann::json signUp(db::Database& db, const Signup& signup, TimePoint now);

// AccountDocument: the account, its keys, numbers and limits as of `now`. NOT_FOUND if none.
nlohmann::json accountDocument(db::Database& db, const std::string& account_id, TimePoint now);

struct AccountChange {
  std::optional<std::string> name;
  // Set: the new sender name (domain/casl.h textSignature), or none to sign with the account's
  // name again.
  std::optional<std::optional<std::string>> sender_name;
};
// The sign-in email is not changed here: account_security.h moves it with proof.
nlohmann::json changeAccount(db::Database& db, const std::string& account_id,
                             const AccountChange& change, TimePoint now);

// Ledger entries older than entry `before` (its number), newest first: {data, has_more}.
nlohmann::json ledgerPage(db::Database& db, const std::string& account_id, long long before,
                          int limit);

}  // namespace smsgw::accounts
