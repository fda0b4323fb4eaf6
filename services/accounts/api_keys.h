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

// Returns the ApiKey resource plus `key`, the secret, which is never readable again.
nlohmann::json insertApiKey(soci::session& sql, const std::string& account_id, KeyMode mode,
                            const std::optional<std::string>& label, const Permissions& permissions,
                            bool default_deny);

struct NewKey {
  KeyMode mode = KeyMode::Test;
  std::optional<std::string> label;
  std::optional<Permissions> permissions;  // none: the caller's
  bool default_deny = false;
  std::optional<std::string> password;  // the step-up for broader permissions
};
// The new key with its secret. Throws ApiError KEY_FENCED, LIVE_KEY_REQUIRED or
// PERMISSION_ESCALATION.
nlohmann::json createKey(db::Database& db, const Caller& caller, const NewKey& wanted);
// The account's user keys not revoked, newest first.
nlohmann::json listKeys(db::Database& db, const Caller& caller);

struct KeyRotation {
  std::optional<Permissions> permissions;  // none: the old key's
  std::optional<std::string> label;        // none: the old key's
  std::optional<std::string> password;
};
// The replacement with its secret; the old key is revoked. Throws ApiError KEY_FENCED (another
// key), LIVE_KEY_REQUIRED, CONFLICT (revoked, session_key, oauth_grant, raced) or
// PERMISSION_ESCALATION.
nlohmann::json rotateKey(db::Database& db, const Caller& caller, const std::string& id,
                         const KeyRotation& rotation, TimePoint now);
void revokeKey(db::Database& db, const Caller& caller, const std::string& id, TimePoint now);

}  // namespace smsgw::accounts
