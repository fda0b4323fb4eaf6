#include "services/accounts/api_keys.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "domain/ownership.h"

namespace smsgw::accounts {
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
void checkEscalation(soci::session& sql, const Caller& caller, const Permissions& wanted,
                     const std::optional<std::string>& password) {
  if (wanted.isSubsetOf(caller.permissions)) return;
  if (password) {
    std::string hash;
    sql << "SELECT password_hash FROM accounts WHERE id = :id", soci::use(caller.account_id),
        soci::into(hash);
    if (crypto::verifyPassword(*password, hash)) return;
  }
  throw ApiError(ErrorCode::PERMISSION_ESCALATION);
}

}  // namespace

nlohmann::json insertApiKey(soci::session& sql, const std::string& account_id, KeyMode mode,
                            const std::optional<std::string>& label, const Permissions& permissions,
                            bool default_deny) {
  GeneratedKey key = generateApiKey(mode);
  std::string id = newId("key");
  std::string mode_text(toString(mode));
  std::string permissions_text = permissions.toJson().dump();
  int deny = default_deny ? 1 : 0;
  soci::indicator label_ind = label ? soci::i_ok : soci::i_null;
  std::string label_text = label.value_or("");
  sql << "INSERT INTO api_keys (id, account_id, key_hash, key_prefix, mode, label, permissions, "
         "default_deny) "
         "VALUES (:id, :account, :hash, :prefix, :mode, :label, :permissions::jsonb, "
         ":deny::int::boolean)",
      soci::use(id), soci::use(account_id), soci::use(key.hash), soci::use(key.key_prefix),
      soci::use(mode_text), soci::use(label_text, label_ind), soci::use(permissions_text),
      soci::use(deny);
  auto resource =
      db::queryJson(sql, "SELECT api_key_resource(k)::text FROM api_keys k WHERE k.id = :id", id);
  (*resource)["key"] = key.secret;
  return *resource;
}

nlohmann::json createKey(db::Database& db, const Caller& caller, const NewKey& wanted) {
  if (caller.fenced) throw ApiError(ErrorCode::KEY_FENCED);
  if (wanted.mode == KeyMode::Live && !caller.live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  Permissions permissions = wanted.permissions.value_or(caller.permissions);
  db::Session sql(db);
  soci::transaction tx(*sql);
  checkEscalation(*sql, caller, permissions, wanted.password);
  nlohmann::json key = insertApiKey(*sql, caller.account_id, wanted.mode, wanted.label, permissions,
                                    wanted.default_deny);
  tx.commit();
  return key;
}

nlohmann::json listKeys(db::Database& db, const Caller& caller) {
  db::Session sql(db);
  return db::queryJsonArray(
      *sql,
      "SELECT api_key_resource(k)::text FROM api_keys k WHERE k.account_id = :a "
      "AND k.kind = 'USER' AND k.revoked_at IS NULL ORDER BY k.created_at DESC",
      caller.account_id);
}

nlohmann::json rotateKey(db::Database& db, const Caller& caller, const std::string& id,
                         const KeyRotation& rotation, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  auto key = loadKey(*sql, id);
  requireOwnedBy(key ? std::optional(key->account_id) : std::nullopt, caller.account_id);
  if (caller.fenced && id != caller.key_id) throw ApiError(ErrorCode::KEY_FENCED);
  if (key->mode == "LIVE" && !caller.live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  if (key->revoked) throw ApiError(ErrorCode::CONFLICT, {{"reason", "revoked"}});
  if (key->kind == "SESSION") throw ApiError(ErrorCode::CONFLICT, {{"reason", "session_key"}});
  if (key->oauth) throw ApiError(ErrorCode::CONFLICT, {{"reason", "oauth_grant"}});

  Permissions permissions =
      rotation.permissions.value_or(Permissions::fromJson(nlohmann::json::parse(key->permissions)));
  checkEscalation(*sql, caller, permissions, rotation.password);
  std::optional<std::string> label =
      key->label_ind == soci::i_ok ? std::optional(key->label) : std::nullopt;
  if (rotation.label) label = rotation.label;

  nlohmann::json fresh = insertApiKey(*sql, caller.account_id, *keyModeFromString(key->mode), label,
                                      permissions, key->default_deny != 0);
  std::string fresh_id = fresh["id"], at = formatIso(now);
  // Only one rotation can win: a concurrent one finds the key already revoked.
  int won = 0;
  *sql << "UPDATE api_keys SET revoked_at = :now::timestamptz, replaced_by = :new WHERE id = :id "
          "AND revoked_at IS NULL RETURNING 1",
      soci::use(at), soci::use(fresh_id), soci::use(id), soci::into(won);
  if (!sql->got_data()) throw ApiError(ErrorCode::CONFLICT, {{"reason", "raced"}});
  tx.commit();
  return fresh;
}

void revokeKey(db::Database& db, const Caller& caller, const std::string& id, TimePoint now) {
  db::Session sql(db);
  auto key = loadKey(*sql, id);
  requireOwnedBy(key ? std::optional(key->account_id) : std::nullopt, caller.account_id);
  if (key->mode == "LIVE" && !caller.live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  if (key->kind == "SESSION") throw ApiError(ErrorCode::NOT_FOUND);
  int revoked = 0;
  std::string at = formatIso(now);
  *sql << "UPDATE api_keys SET revoked_at = :now::timestamptz WHERE id = :id AND revoked_at IS "
          "NULL RETURNING 1",
      soci::use(at), soci::use(id), soci::into(revoked);
  if (!sql->got_data()) throw ApiError(ErrorCode::NOT_FOUND, {{"reason", "already_revoked"}});
}

}  // namespace smsgw::accounts
