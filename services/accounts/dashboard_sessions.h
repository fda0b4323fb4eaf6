#pragma once
// Dashboard sessions (docs/dashboard.md): the owner's email and password open a pair of session
// keys, LIVE and TEST, that the browser keeps in cookies (domain/dashboard_session.h). They hold
// every permission, are never listed among the account's keys, cannot be rotated (409 CONFLICT
// session_key), and end when they expire or at sign-out.

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "domain/dashboard_session.h"

namespace smsgw::accounts {

struct OpenedSession {
  // {account, api_keys (the two session keys without their secrets, nor defaultDeny,
  // email_domain_ids or oauth_grant), expires_at, csrf_token}
  nlohmann::json body;
  dashboard::SessionSecrets secrets;  // for the cookies only
};

// Checks the password (password_guard.h, counted per account). Throws ApiError UNAUTHORIZED
// (reason invalid_credentials, alike for an unknown email and a wrong password), RATE_LIMITED
// (password_locked, with Retry-After) or FORBIDDEN (account_closed). Takes connections of its own.
OpenedSession signIn(db::Database& db, const std::string& email, const std::string& password,
                     std::chrono::seconds lifetime, TimePoint now);

// Ends the caller's session key and the other key of its pair, found among the presented
// secrets' hashes. Throws ApiError FORBIDDEN (not_a_session) for any other key.
void signOut(db::Database& db, const Caller& caller, const std::vector<std::string>& key_hashes,
             TimePoint now);

}  // namespace smsgw::accounts
