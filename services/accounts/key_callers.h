#pragma once
// Who an API key is: the one place that reads a key to authenticate a request. The HTTP edge
// asks lookUpCaller for a key it has not seen lately; a caller it kept from an earlier request
// is only a guess (api/http/caller_cache.h), which a route's own transaction confirms with
// confirmCaller before anything is decided from it. Both read the SQL function api_key_caller
// (migration 0006) and parse its row alike. api_keys.h creates, lists and revokes keys.

#include <soci/session.h>

#include <exception>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"

namespace smsgw::accounts {

// The caller of the key with this SHA-256 (hashApiKey), as of `now` (its last-used stamp is
// refreshed once a minute). Throws ApiError UNAUTHORIZED or API_KEY_REVOKED.
Caller lookUpCaller(db::Database& db, const std::string& key_hash, TimePoint now);

// Thrown by confirmCaller when the key's row no longer gives the guessed caller: the key was
// revoked or removed, or the account's status, the key's permissions or its fences changed.
// The HTTP edge then looks the key up afresh and answers as that lookup says.
class CallerChanged : public std::exception {
 public:
  const char* what() const noexcept override { return "the cached caller changed"; }
};

// A caller taken from a cache: `unconfirmed_key_hash` is set until a transaction confirms it,
// and cleared by confirmCaller then (unset from the start when the caller was looked up for
// this request).
struct CallerGuess {
  const Caller& caller;
  std::optional<std::string>& unconfirmed_key_hash;
};

// To read the key's row inside a prepared statement of one's own (a send's standing): select
// kKeyRowColumn from a FROM clause ending in keyRowJoin, whose arguments number the
// statement's parameters that hold the hash and the time ($n). The column is null when the key
// does not exist.
inline constexpr const char* kKeyRowColumn = "row_to_json(k)::text";
std::string keyRowJoin(int hash_parameter, int now_parameter);

// Confirms the guess from the key's row read in the same transaction (kKeyRowColumn). Does
// nothing when there is nothing to confirm. Throws CallerChanged.
void confirmCaller(soci::session& sql, const CallerGuess& guess,
                   const std::optional<std::string>& key_row, TimePoint now);
// The same for a path that reads nothing else: one round trip of its own.
void confirmCaller(soci::session& sql, const CallerGuess& guess, TimePoint now);

}  // namespace smsgw::accounts
