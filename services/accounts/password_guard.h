#pragma once
// The one check of an account owner's password: the OAuth consent page, the step-up for a key
// with broader permissions, and the dashboard's sign-in. Wrong passwords are counted per
// account, by the email they were tried for, whatever address they came from; after a few in
// a row the password is not checked at all for a while that grows with each further failure
// (domain/password_backoff.h), and a right one clears the count. An email no account has is
// hashed against a stand-in and counted the same, so neither the answer, nor its time, nor a
// lock tells whether the email exists.
//
// Each check takes a connection of its own and commits its count at once, so a refusal that
// rolls back the caller's own transaction still counts: call it holding no other connection.
// Checks of one email run one at a time, so parallel guesses cannot all pass before the count
// rises. Thread-safe.

#include <chrono>
#include <string>

#include "db/database.h"
#include "domain/clock.h"
#include "domain/errors.h"

namespace smsgw::accounts {

struct PasswordCheck {
  enum class Outcome { Matches, Wrong, Locked };
  Outcome outcome = Outcome::Wrong;
  std::string account_id;               // Matches
  std::string account_status;           // Matches
  std::chrono::seconds retry_after{0};  // Locked: when the password may be tried again
};

// The account whose owner signs in with this email and password.
PasswordCheck checkOwnerPassword(db::Database& db, const std::string& email,
                                 const std::string& password, TimePoint now);

// 429 RATE_LIMITED (details.reason password_locked, Retry-After) for a Locked check.
ApiError passwordLocked(const PasswordCheck& check);

// The step-up of a caller who already holds a key: the password of that key's account. Throws
// ApiError RATE_LIMITED (details.reason password_locked, Retry-After) while the account is
// locked; returns whether the password is the account's.
bool isAccountPassword(db::Database& db, const std::string& account_id, const std::string& password,
                       TimePoint now);

}  // namespace smsgw::accounts
