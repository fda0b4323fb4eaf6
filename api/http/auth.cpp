#include "api/http/auth.h"

#include <soci/soci.h>

#include "domain/api_key.h"
#include "domain/errors.h"

namespace smsgw::api {

Caller authenticate(db::Database& db, const std::string& presented_key) {
  // Malformed keys are refused without touching the database.
  if (!parseApiKey(presented_key)) throw ApiError(ErrorCode::UNAUTHORIZED);
  std::string hash = hashApiKey(presented_key);

  db::Session sql(db);
  Caller caller;
  std::string mode, permissions;
  int revoked = 0, fenced = 0, allow_list_required = 0, stale = 0;
  *sql << "SELECT * FROM api_key_caller(:hash)", soci::use(hash), soci::into(caller.key_id),
      soci::into(caller.account_id), soci::into(mode), soci::into(permissions), soci::into(revoked),
      soci::into(caller.account_status), soci::into(fenced), soci::into(allow_list_required),
      soci::into(stale);
  if (!sql->got_data()) throw ApiError(ErrorCode::UNAUTHORIZED);
  if (revoked) throw ApiError(ErrorCode::API_KEY_REVOKED);
  caller.mode = *keyModeFromString(mode);
  caller.permissions = Permissions::fromJson(nlohmann::json::parse(permissions));
  caller.fenced = fenced != 0;
  caller.allow_list_required = allow_list_required != 0;
  // Written at most once a minute per key, so most requests issue no write at all.
  if (stale) {
    *sql << "UPDATE api_keys SET last_used_at = now() WHERE id = :id "
            "AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds')",
        soci::use(caller.key_id);
  }
  return caller;
}

}  // namespace smsgw::api
