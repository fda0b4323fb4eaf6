#pragma once
// Creating API keys: the one place a secret is generated and its hash stored (signup and
// /v1/api-keys both use it). Runs in the caller's transaction.

#include <soci/session.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "domain/api_key.h"
#include "domain/permissions.h"

namespace smsgw::api {

// Returns the ApiKey resource plus `key`, the secret, which is never readable again.
nlohmann::json insertApiKey(soci::session& sql, const std::string& account_id, KeyMode mode,
                            const std::optional<std::string>& label, const Permissions& permissions,
                            bool default_deny);

}  // namespace smsgw::api
