#pragma once
// The one check of an account owner's password: dashboard sign-in, the OAuth consent page, and
// the step-up of a caller who already holds a key. Wrong passwords are counted, and after a few
// in a row the password is not checked at all for a while that grows with each further failure
// (domain/password_backoff.h); a right one clears the count. Which count a try answers to
// depends on what proves the one trying (docs/decisions.md, "Passwords and locks"):
//
//   who tries                                             counted under (LockScope)
//   a browser the owner proved (trusted_browsers.h)       that browser         Browser
//   anyone else at sign-in or on the consent page         the email tried      Email
//   a dashboard session's step-up                         that session         Session
//   an API key's step-up                                  the account's keys   Keys
//
// So a stranger's wrong passwords lock only strangers: the owner's proven browser, the owner's
// session and an emailed unlock link (which proves a new browser) all get through, and no lock
// blocks the right password forever. Keys share one count because a key can be made without
// the password (a narrower one), so per-key counts would multiply a thief's guesses; sessions
// and proven browsers cannot be made without it. An email no account has is hashed against a
// stand-in and counted the same, so neither the answer, nor its time, nor a lock tells whether
// the email exists.
//
// Each check takes a connection of its own and commits its count at once, so a refusal that
// rolls back the caller's own transaction still counts: call it holding no other connection.
// Checks of one subject run one at a time, so parallel guesses cannot all pass before the count
// rises. Thread-safe.

#include <chrono>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/account_status.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "domain/errors.h"

namespace smsgw::accounts {

enum class LockScope { Email, Browser, Session, Keys };

struct PasswordCheck {
  enum class Outcome { Matches, Wrong, Locked };
  Outcome outcome = Outcome::Wrong;
  std::string account_id;                                // Matches
  AccountStatus account_status = AccountStatus::Active;  // Matches
  std::optional<std::string> browser;                    // Matches from a proven browser: its id
  LockScope scope = LockScope::Email;                    // whose count this try answered to
  int failures = 0;                     // Locked: wrong passwords in a row under that count
  std::chrono::seconds retry_after{0};  // Locked: when the password may be tried again
};

// A sign-in or consent-page try: the email and password typed, and the proven-browser cookie's
// token when the request holds one.
struct PasswordAttempt {
  std::string email;
  std::string password;
  std::optional<std::string> browser_token;
};

PasswordCheck checkOwnerPassword(db::Database& db, const PasswordAttempt& attempt, TimePoint now);

// 429 RATE_LIMITED for a Locked check, with Retry-After and details {reason password_locked,
// scope (email, browser, session, keys), failures, retry_after_seconds}, and for the Email scope
// `unlock` (email_link): POST /v1/sessions/unlock emails the owner a link past the lock.
ApiError passwordLocked(const PasswordCheck& check);

// The step-up of a caller who already holds a key: whether `password` is its account's. Throws
// passwordLocked's ApiError while the caller's count is locked.
bool isAccountPassword(db::Database& db, const Caller& caller, const std::string& password,
                       TimePoint now);

// Standing access made from a dashboard session (a key, a webhook endpoint) outlives the
// session: it needs the password again (docs/dashboard.md, "The step-up"). Nothing for other
// callers; for a session, throws ApiError STEP_UP_REQUIRED without the right password, or
// passwordLocked's.
void requireSessionStepUp(db::Database& db, const Caller& caller,
                          const std::optional<std::string>& password, TimePoint now);

std::string_view toString(LockScope scope);

}  // namespace smsgw::accounts
