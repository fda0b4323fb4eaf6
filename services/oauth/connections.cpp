#include "services/oauth/connections.h"

#include <soci/soci.h>

#include "db/procedures/end_oauth_grant.h"
#include "domain/errors.h"

namespace smsgw::oauth {
namespace {

void refuseGrantTokens(const Caller& caller) {
  if (caller.oauth_grant_id)
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "oauth_token_cannot_manage_apps"}});
}

}  // namespace

nlohmann::json listConnections(db::Database& db, const Caller& caller, TimePoint now) {
  refuseGrantTokens(caller);
  db::Session sql(db);
  std::string mode(toString(caller.mode)), at = formatIso(now);
  soci::rowset<std::string> rows =
      (sql->prepare << R"(
      SELECT jsonb_build_object(
        'id', g.id, 'client_id', g.client_id, 'client_name', c.client_name,
        'client_uri', c.client_uri, 'mode', g.mode, 'permissions', g.permissions,
        'resource', g.resource, 'created_at', iso_ts(g.created_at),
        'refresh_expires_at', iso_ts(g.refresh_expires_at))::text
      FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
      WHERE g.account_id = :account AND g.mode = :mode AND g.revoked_at IS NULL
        AND (g.refresh_expires_at IS NULL OR g.refresh_expires_at > :now::timestamptz)
      ORDER BY g.created_at DESC, g.id)",
       soci::use(caller.account_id, "account"), soci::use(mode, "mode"), soci::use(at, "now"));
  nlohmann::json apps = nlohmann::json::array();
  for (const auto& row : rows) apps.push_back(nlohmann::json::parse(row));
  return apps;
}

void endConnection(db::Database& db, const Caller& caller, const std::string& grant_id,
                   TimePoint now) {
  refuseGrantTokens(caller);
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string owner, mode;
  int ended = 0;
  *sql << "SELECT account_id, mode, (revoked_at IS NOT NULL)::int FROM oauth_grants "
          "WHERE id = :id FOR UPDATE",
      soci::use(grant_id, "id"), soci::into(owner), soci::into(mode), soci::into(ended);
  // The spec does not name this route: another account's grant answers as none would (404), so
  // that an id tells nothing (docs/decisions.md, "Another account's ids").
  if (!sql->got_data() || owner != caller.account_id) throw ApiError(ErrorCode::NOT_FOUND);
  if (mode == "LIVE" && !caller.live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  if (ended != 0 || !db::endOAuthGrant(*sql, {grant_id, "revoked_by_owner", now}))
    throw ApiError(ErrorCode::NOT_FOUND);
  tx.commit();
}

}  // namespace smsgw::oauth
