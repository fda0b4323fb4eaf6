#pragma once
// API keys: create (permissions no broader than the caller's unless the account password is
// given), list, rotate (the old key is revoked at once) and revoke. insertApiKey is the one
// place a secret is generated and its hash stored (signup uses it too).

#include <soci/session.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/api_key.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "domain/permissions.h"

namespace smsgw::accounts {

// Whom a key may message (spec Authentication 5): lists of the key's account.
struct KeyFence {
  bool default_deny = false;
  std::optional<std::string> allow_list_id;
  std::optional<std::string> deny_list_id;
};

// A key an OAuth connection holds (its access token): it expires, and can be revoked but not
// rotated (spec ApiKey `oauth_grant`).
struct OAuthHolding {
  std::string grant_id;
  TimePoint expires_at;
  std::optional<std::string> resource;  // the one it serves (RFC 8707); none: any
};

// Returns the ApiKey resource plus `key`, the secret, which is never readable again.
nlohmann::json insertApiKey(soci::session& sql, const std::string& account_id, KeyMode mode,
                            const std::optional<std::string>& label, const Permissions& permissions,
                            const KeyFence& fence,
                            const std::optional<OAuthHolding>& holding = std::nullopt);
// A dashboard session's key (services/accounts/dashboard_sessions.h): every permission, not
// listed, not rotatable, ending at `expires_at` or with its session. With its secret.
nlohmann::json insertSessionKey(soci::session& sql, const std::string& account_id, KeyMode mode,
                                TimePoint expires_at, const std::string& session_id);

struct NewKey {
  KeyMode mode = KeyMode::Test;
  std::optional<std::string> label;
  std::optional<Permissions> permissions;  // none: the caller's
  KeyFence fence;
  std::optional<std::string> password;  // the step-up for broader permissions
};
// The new key with its secret. Throws ApiError KEY_FENCED, LIVE_KEY_REQUIRED,
// PERMISSION_ESCALATION, RATE_LIMITED (the step-up's password locked), CONTACT_LIST_NOT_FOUND
// (403 FORBIDDEN for another account's list), or FORBIDDEN oauth_token_cannot_make_keys (a
// connected app's token).
nlohmann::json createKey(db::Database& db, const Caller& caller, const NewKey& wanted,
                         TimePoint now);
// The account's user keys neither revoked nor expired at `now`, newest first.
nlohmann::json listKeys(db::Database& db, const Caller& caller, TimePoint now);

struct KeyRotation {
  std::optional<Permissions> permissions;  // none: the old key's
  std::optional<std::string> label;        // none: the old key's
  std::optional<std::string> password;
};
// The replacement with its secret; the old key is revoked. Throws ApiError KEY_FENCED (another
// key), LIVE_KEY_REQUIRED, CONFLICT (revoked, session_key, oauth_grant, raced),
// PERMISSION_ESCALATION, RATE_LIMITED (the step-up's password locked) or FORBIDDEN
// oauth_token_cannot_make_keys.
nlohmann::json rotateKey(db::Database& db, const Caller& caller, const std::string& id,
                         const KeyRotation& rotation, TimePoint now);
// Revoking a key an OAuth connection holds ends the connection too: its refresh token can make
// no new key, and the endpoints it registered are deleted.
void revokeKey(db::Database& db, const Caller& caller, const std::string& id, TimePoint now);

// PATCH: what is given changes; a list id given as null clears that list.
struct KeyChange {
  std::optional<std::string> label;
  std::optional<bool> default_deny;
  std::optional<std::optional<std::string>> allow_list_id;
  std::optional<std::optional<std::string>> deny_list_id;
  bool changesFence() const { return default_deny || allow_list_id || deny_list_id; }
};
// The key's resource after the change. Throws ApiError KEY_FENCED (a fenced caller changing list
// settings), LIVE_KEY_REQUIRED (a TEST caller and a LIVE key), CONFLICT (revoked) or
// CONTACT_LIST_NOT_FOUND.
nlohmann::json changeKey(db::Database& db, const Caller& caller, const std::string& id,
                         const KeyChange& change);

}  // namespace smsgw::accounts
