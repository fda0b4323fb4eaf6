#pragma once
// Resolves an API key to its Caller, and confirms a cached Caller inside a route's own
// transaction (see caller_cache.h).

#include <soci/session.h>

#include <exception>
#include <optional>
#include <string>

#include "api/http/api_types.h"
#include "db/database.h"
#include "db/key_row.h"
#include "domain/clock.h"

namespace smsgw::api {

// The caller of the key with this SHA-256 (hashApiKey), as of `now` (its last-used stamp is
// refreshed once a minute). Throws ApiError UNAUTHORIZED or API_KEY_REVOKED.
Caller authenticate(db::Database& db, const std::string& key_hash, TimePoint now);

// Thrown by confirmCaller when the key's row no longer gives the cached caller: the key was
// revoked or removed, or the account's status, the key's permissions or its fences changed.
// The HTTP edge then looks the key up afresh and answers as that lookup says.
class CallerChanged : public std::exception {
 public:
  const char* what() const noexcept override { return "the cached caller changed"; }
};

// Confirms req's cached caller from its key row (kKeyRowColumn). Does nothing when the caller
// was looked up for this request. Runs in the route's transaction.
void confirmCaller(soci::session& sql, ApiRequest& req, const std::optional<std::string>& key_row,
                   TimePoint now);
// The same for a path that reads nothing else: one round trip of its own.
void confirmCaller(soci::session& sql, ApiRequest& req, TimePoint now);

}  // namespace smsgw::api
