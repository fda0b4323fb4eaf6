// API key management: create (with permissions no broader than the caller's unless the
// account password is given), list, rotate (the old key is revoked at once) and revoke.
#include <soci/soci.h>

#include "api/routes/json_rows.h"
#include "api/routes/key_store.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/api_key.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"

namespace smsgw::api {
namespace {

struct StoredKey {
  std::string account_id;
  std::string mode;
  std::string kind;
  std::string label;
  soci::indicator label_ind = soci::i_null;
  std::string permissions;
  int default_deny = 0;
  int revoked = 0;
  int oauth = 0;
};

std::optional<StoredKey> loadKey(soci::session& sql, const std::string& id) {
  StoredKey k;
  sql << "SELECT account_id, mode, kind, label, permissions::text, default_deny::int, (revoked_at "
         "IS NOT NULL)::int, "
         "oauth_grant::int FROM api_keys WHERE id = :id",
      soci::use(id), soci::into(k.account_id), soci::into(k.mode), soci::into(k.kind),
      soci::into(k.label, k.label_ind), soci::into(k.permissions), soci::into(k.default_deny),
      soci::into(k.revoked), soci::into(k.oauth);
  if (!sql.got_data()) return std::nullopt;
  return k;
}

// Broader permissions than the caller's need the account password (a step-up).
void checkEscalation(soci::session& sql, const ApiRequest& req, const Permissions& wanted,
                     const nlohmann::json& body) {
  if (wanted.isSubsetOf(req.who().permissions)) return;
  auto password = optionalString(body, "password", 200);
  if (password) {
    std::string hash;
    sql << "SELECT password_hash FROM accounts WHERE id = :id", soci::use(req.who().account_id),
        soci::into(hash);
    if (crypto::verifyPassword(*password, hash)) return;
  }
  throw ApiError(ErrorCode::PERMISSION_ESCALATION);
}

void refuseListSettings(const nlohmann::json& body) {
  for (const char* field : {"allow_list_id", "deny_list_id"}) {
    if (body.contains(field) && !body[field].is_null()) {
      // Contact lists arrive with the contacts issue; until then no id can name one.
      throw ApiError(ErrorCode::CONTACT_LIST_NOT_FOUND, {{"field", field}});
    }
  }
}

ApiResponse createKey(App& app, ApiRequest& req) {
  const Caller& caller = req.who();
  if (caller.fenced) throw ApiError(ErrorCode::KEY_FENCED);
  const auto& body = requireObjectBody(req);
  auto mode_text = requireString(body, "mode", 10);
  auto mode = keyModeFromString(mode_text);
  if (!mode) throw validationError("mode", "must be LIVE or TEST");
  if (*mode == KeyMode::Live && !caller.live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  auto label = optionalString(body, "label", 100);
  Permissions permissions = body.contains("permissions")
                                ? Permissions::fromJson(body["permissions"])
                                : caller.permissions;
  bool default_deny = optionalBool(body, "default_deny").value_or(false);
  refuseListSettings(body);

  db::Session sql(app.db);
  soci::transaction tx(*sql);
  checkEscalation(*sql, req, permissions, body);
  nlohmann::json key =
      insertApiKey(*sql, caller.account_id, *mode, label, permissions, default_deny);
  tx.commit();
  return ApiResponse::json(201, key);
}

ApiResponse listKeys(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  return ApiResponse::json(
      200, {{"data", queryJsonArray(
                         *sql,
                         "SELECT api_key_resource(k)::text FROM api_keys k WHERE k.account_id = :a "
                         "AND k.kind = 'USER' AND k.revoked_at IS NULL ORDER BY k.created_at DESC",
                         req.who().account_id)}});
}

ApiResponse rotateKey(App& app, ApiRequest& req) {
  const Caller& caller = req.who();
  const std::string& id = req.params.at("id");
  nlohmann::json body = req.body.is_null() ? nlohmann::json::object() : requireObjectBody(req);
  db::Session sql(app.db);
  soci::transaction tx(*sql);
  auto key = loadKey(*sql, id);
  requireOwnedBy(key ? std::optional(key->account_id) : std::nullopt, caller.account_id);
  if (caller.fenced && id != caller.key_id) throw ApiError(ErrorCode::KEY_FENCED);
  if (key->mode == "LIVE" && !caller.live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  if (key->revoked) throw ApiError(ErrorCode::CONFLICT, {{"reason", "revoked"}});
  if (key->kind == "SESSION") throw ApiError(ErrorCode::CONFLICT, {{"reason", "session_key"}});
  if (key->oauth) throw ApiError(ErrorCode::CONFLICT, {{"reason", "oauth_grant"}});

  Permissions permissions = body.contains("permissions")
                                ? Permissions::fromJson(body["permissions"])
                                : Permissions::fromJson(nlohmann::json::parse(key->permissions));
  checkEscalation(*sql, req, permissions, body);
  std::optional<std::string> label =
      key->label_ind == soci::i_ok ? std::optional(key->label) : std::nullopt;
  if (auto new_label = optionalString(body, "label", 100)) label = new_label;

  nlohmann::json fresh = insertApiKey(*sql, caller.account_id, *keyModeFromString(key->mode), label,
                                      permissions, key->default_deny != 0);
  std::string fresh_id = fresh["id"];
  // Only one rotation can win: a concurrent one finds the key already revoked.
  int won = 0;
  *sql << "UPDATE api_keys SET revoked_at = now(), replaced_by = :new WHERE id = :id AND "
          "revoked_at IS NULL RETURNING 1",
      soci::use(fresh_id), soci::use(id), soci::into(won);
  if (!sql->got_data()) throw ApiError(ErrorCode::CONFLICT, {{"reason", "raced"}});
  tx.commit();
  return ApiResponse::json(200, fresh);
}

ApiResponse revokeKey(App& app, ApiRequest& req) {
  const Caller& caller = req.who();
  const std::string& id = req.params.at("id");
  db::Session sql(app.db);
  auto key = loadKey(*sql, id);
  requireOwnedBy(key ? std::optional(key->account_id) : std::nullopt, caller.account_id);
  if (key->mode == "LIVE" && !caller.live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  if (key->kind == "SESSION") throw ApiError(ErrorCode::NOT_FOUND);
  int revoked = 0;
  *sql
      << "UPDATE api_keys SET revoked_at = now() WHERE id = :id AND revoked_at IS NULL RETURNING 1",
      soci::use(id), soci::into(revoked);
  if (!sql->got_data()) throw ApiError(ErrorCode::NOT_FOUND, {{"reason", "already_revoked"}});
  return ApiResponse::noContent();
}

}  // namespace

void addApiKeyRoutes(Router& router, App& app) {
  RouteOptions read = needs("api_keys:r");
  read.allowed_before_payment = true;
  router.add("GET", "/v1/api-keys", read, [&app](ApiRequest& r) { return listKeys(app, r); });
  // Both may check the account password (the step-up), which is hashed slowly on purpose.
  router.add("POST", "/v1/api-keys", onSlowLane(needs("api_keys:w")),
             [&app](ApiRequest& r) { return createKey(app, r); });
  router.add("POST", "/v1/api-keys/{id}/rotate", onSlowLane(needs("api_keys:m")),
             [&app](ApiRequest& r) { return rotateKey(app, r); });
  router.add("DELETE", "/v1/api-keys/{id}", needs("api_keys:d"),
             [&app](ApiRequest& r) { return revokeKey(app, r); });
}

}  // namespace smsgw::api
