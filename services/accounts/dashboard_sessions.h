#pragma once
// Dashboard sessions (docs/dashboard.md): the owner's email and password open a session, a pair
// of session keys, LIVE and TEST, that the browser keeps in cookies (domain/dashboard_session.h).
// The keys hold every permission, are never listed among the account's keys, cannot be rotated
// (409 CONFLICT session_key), and end when the session expires or is ended: at sign-out, by the
// owner from the session list (one, or all at once), or when the password changes. Each session
// remembers when and from where (address, browser) it began.

#include <soci/session.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "domain/dashboard_session.h"

namespace smsgw::accounts {

struct SignIn {
  std::string email;
  std::string password;
  std::optional<std::string> browser_token;  // the proven-browser cookie's, if any
  std::string client_ip;
  std::optional<std::string> user_agent;
};

struct OpenedSession {
  // {account, api_keys (the two session keys without their secrets, nor defaultDeny,
  // email_domain_ids or oauth_grant), expires_at, csrf_token}
  nlohmann::json body;
  dashboard::SessionSecrets secrets;  // for the cookies only
  // The browser's proven-browser token: the one it came with, or a new one (trusted_browsers.h).
  std::string browser_token;
};

// Checks the password (password_guard.h). Throws ApiError UNAUTHORIZED (reason
// invalid_credentials, alike for an unknown email and a wrong password), RATE_LIMITED
// (password_locked, with Retry-After) or FORBIDDEN (account_closed). Takes connections of its own.
OpenedSession signIn(db::Database& db, const SignIn& attempt, std::chrono::seconds lifetime,
                     TimePoint now);

// Ends the caller's session key and the other key of its pair, found among the presented
// secrets' hashes. Throws ApiError FORBIDDEN (not_a_session) for any other key.
void signOut(db::Database& db, const Caller& caller, const std::vector<std::string>& key_hashes,
             TimePoint now);

// The account's sessions still open, newest first: {data: [{id, current, client_ip, user_agent,
// created_at, last_used_at, expires_at}]}.
nlohmann::json openSessions(db::Database& db, const Caller& caller, TimePoint now);

// Ends one of the account's open sessions. Throws ApiError NOT_FOUND for any other id (another
// account's included: ours to define, and not told apart).
void endSession(db::Database& db, const Caller& caller, const std::string& session_id,
                TimePoint now);

// Ends every session of the account, the caller's own included ("sign out everywhere").
void endEverySession(db::Database& db, const Caller& caller, TimePoint now);

// In the caller's transaction: ends the account's sessions but `keep` (a password change keeps
// the session that made it), with the reason recorded.
void endSessionsOf(soci::session& sql, const std::string& account_id,
                   const std::optional<std::string>& keep, const std::string& reason,
                   TimePoint now);

// The session a key belongs to, if it is a session's.
std::optional<std::string> sessionOfKey(soci::session& sql, const std::string& key_id);

}  // namespace smsgw::accounts
