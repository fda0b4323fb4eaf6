#include "services/accounts/api_keys.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "db/procedures/end_oauth_grant.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "domain/ownership.h"
#include "services/accounts/password_guard.h"

namespace smsgw::accounts {
namespace {

struct StoredKey {
  std::string account_id;
  std::string mode;
  std::string kind;
  std::string label;
  soci::indicator label_ind = soci::i_null;
  std::string permissions;
  KeyFence fence;
  int revoked = 0;
  int oauth = 0;
  std::string oauth_grant_id;  // the connection an OAuth access key belongs to
};

std::optional<StoredKey> loadKey(soci::session& sql, const std::string& id) {
  StoredKey k;
  int default_deny = 0;
  std::string allow, deny;
  soci::indicator allow_ind = soci::i_null, deny_ind = soci::i_null, grant_ind = soci::i_null;
  sql << "SELECT account_id, mode, kind, label, permissions::text, default_deny::int, "
         "allow_list_id, deny_list_id, (revoked_at IS NOT NULL)::int, oauth_grant::int, "
         "oauth_grant_id "
         "FROM api_keys WHERE id = :id FOR UPDATE",
      soci::use(id), soci::into(k.account_id), soci::into(k.mode), soci::into(k.kind),
      soci::into(k.label, k.label_ind), soci::into(k.permissions), soci::into(default_deny),
      soci::into(allow, allow_ind), soci::into(deny, deny_ind), soci::into(k.revoked),
      soci::into(k.oauth), soci::into(k.oauth_grant_id, grant_ind);
  if (!sql.got_data()) return std::nullopt;
  k.fence = {default_deny != 0, allow_ind == soci::i_ok ? std::optional(allow) : std::nullopt,
             deny_ind == soci::i_ok ? std::optional(deny) : std::nullopt};
  return k;
}

// A key's lists must be its account's lists.
void requireOwnLists(soci::session& sql, const std::string& account_id, const KeyFence& fence) {
  for (const auto& list_id : {fence.allow_list_id, fence.deny_list_id}) {
    if (!list_id) continue;
    std::string owner;
    sql << "SELECT account_id FROM contact_lists WHERE id = :id", soci::use(*list_id),
        soci::into(owner);
    if (!sql.got_data()) throw ApiError(ErrorCode::CONTACT_LIST_NOT_FOUND, {{"id", *list_id}});
    requireOwnedBy(owner, account_id);
  }
}

// Broader permissions than the caller's need the account password (a step-up), counted
// under the caller's session or the account's keys (password_guard.h). A dashboard session holds
// every permission only because its owner typed the password at sign-in, and a key outlives the
// session: it needs the password again for any key it makes or rotates (like GitHub's sudo
// mode), so a browser left signed in cannot mint a lasting key. It takes a connection of its
// own: call it holding none.
void checkEscalation(db::Database& db, const Caller& caller, const Permissions& wanted,
                     const std::optional<std::string>& password, TimePoint now) {
  if (wanted.isSubsetOf(caller.permissions) && !caller.dashboard_session) return;
  if (password && isAccountPassword(db, caller, *password, now)) return;
  throw ApiError(ErrorCode::PERMISSION_ESCALATION);
}

// A connected app's token is a key already, with the grant's permissions and its end. Another
// key it made would outlive the grant, and a key it rotated would hand it that key's new
// secret: it may do neither (docs/oauth.md "What a connection can leave behind").
void refuseGrantTokens(const Caller& caller) {
  if (caller.oauth_grant_id)
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "oauth_token_cannot_make_keys"}});
}

// One key's row as written: a user's key, an OAuth connection's token, or a dashboard session's.
struct KeyRow {
  const std::string& account_id;
  KeyMode mode;
  const std::optional<std::string>& label;
  const Permissions& permissions;
  const KeyFence& fence;
  const char* kind = "USER";
  std::optional<TimePoint> expires_at = std::nullopt;
  const OAuthHolding* oauth = nullptr;
  std::optional<std::string> session_id = std::nullopt;  // a dashboard session's key
};

nlohmann::json insertKeyRow(soci::session& sql, const KeyRow& row) {
  GeneratedKey key = generateApiKey(row.mode);
  std::string id = newId("key");
  std::string mode_text(toString(row.mode)), kind(row.kind);
  std::string permissions_text = row.permissions.toJson().dump();
  int deny = row.fence.default_deny ? 1 : 0;
  soci::indicator label_ind = row.label ? soci::i_ok : soci::i_null;
  std::string label_text = row.label.value_or("");
  std::string allow_list = row.fence.allow_list_id.value_or(""),
              deny_list = row.fence.deny_list_id.value_or("");
  soci::indicator allow_ind = row.fence.allow_list_id ? soci::i_ok : soci::i_null,
                  deny_ind = row.fence.deny_list_id ? soci::i_ok : soci::i_null;
  std::string grant_id = row.oauth ? row.oauth->grant_id : "";
  soci::indicator grant_ind = row.oauth ? soci::i_ok : soci::i_null;
  std::string expires_at = row.expires_at ? formatIso(*row.expires_at) : "";
  soci::indicator expires_ind = row.expires_at ? soci::i_ok : soci::i_null;
  std::string oauth_resource = row.oauth ? row.oauth->resource.value_or("") : "";
  soci::indicator oauth_resource_ind = row.oauth && row.oauth->resource ? soci::i_ok : soci::i_null;
  std::string session_id = row.session_id.value_or("");
  soci::indicator session_ind = row.session_id ? soci::i_ok : soci::i_null;
  sql << "INSERT INTO api_keys (id, account_id, key_hash, key_prefix, mode, kind, label, "
         "permissions, default_deny, allow_list_id, deny_list_id, oauth_grant, oauth_grant_id, "
         "expires_at, oauth_resource, session_id) "
         "VALUES (:id, :account, :hash, :prefix, :mode, :kind, :label, :permissions::jsonb, "
         ":deny::int::boolean, :allow_list, :deny_list, :grant_id::text IS NOT NULL, :grant_id2, "
         ":expires_at::timestamptz, :resource, :session)",
      soci::use(id), soci::use(row.account_id), soci::use(key.hash), soci::use(key.key_prefix),
      soci::use(mode_text), soci::use(kind), soci::use(label_text, label_ind),
      soci::use(permissions_text), soci::use(deny), soci::use(allow_list, allow_ind),
      soci::use(deny_list, deny_ind), soci::use(grant_id, grant_ind),
      soci::use(grant_id, grant_ind), soci::use(expires_at, expires_ind),
      soci::use(oauth_resource, oauth_resource_ind), soci::use(session_id, session_ind);
  auto resource =
      db::queryJson(sql, "SELECT api_key_resource(k)::text FROM api_keys k WHERE k.id = :id", id);
  (*resource)["key"] = key.secret;
  return *resource;
}

}  // namespace

nlohmann::json insertApiKey(soci::session& sql, const std::string& account_id, KeyMode mode,
                            const std::optional<std::string>& label, const Permissions& permissions,
                            const KeyFence& fence, const std::optional<OAuthHolding>& holding) {
  KeyRow row{account_id, mode, label, permissions, fence};
  if (holding) {
    row.oauth = &*holding;
    row.expires_at = holding->expires_at;
  }
  return insertKeyRow(sql, row);
}

nlohmann::json insertSessionKey(soci::session& sql, const std::string& account_id, KeyMode mode,
                                TimePoint expires_at, const std::string& session_id) {
  static const std::optional<std::string> kLabel = "Dashboard session";
  Permissions everything = Permissions::everything();
  KeyRow row{account_id, mode, kLabel, everything, KeyFence{}, "SESSION", expires_at};
  row.session_id = session_id;
  return insertKeyRow(sql, row);
}

nlohmann::json createKey(db::Database& db, const Caller& caller, const NewKey& wanted,
                         TimePoint now) {
  refuseGrantTokens(caller);
  if (caller.fenced) throw ApiError(ErrorCode::KEY_FENCED);
  if (wanted.mode == KeyMode::Live && !caller.live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  Permissions permissions = wanted.permissions.value_or(caller.permissions);
  checkEscalation(db, caller, permissions, wanted.password, now);
  db::Session sql(db);
  soci::transaction tx(*sql);
  requireOwnLists(*sql, caller.account_id, wanted.fence);
  nlohmann::json key =
      insertApiKey(*sql, caller.account_id, wanted.mode, wanted.label, permissions, wanted.fence);
  tx.commit();
  return key;
}

nlohmann::json listKeys(db::Database& db, const Caller& caller, TimePoint now) {
  db::Session sql(db);
  return db::queryJsonArray(
      *sql,
      "SELECT api_key_resource(k)::text FROM api_keys k "
      "WHERE k.account_id = :account AND k.kind = 'USER' AND k.revoked_at IS NULL "
      "AND (k.expires_at IS NULL OR k.expires_at > :now::timestamptz) "
      "ORDER BY k.created_at DESC",
      {{"account", caller.account_id}, {"now", formatIso(now)}});
}

nlohmann::json rotateKey(db::Database& db, const Caller& caller, const std::string& id,
                         const KeyRotation& rotation, TimePoint now) {
  refuseGrantTokens(caller);
  std::optional<StoredKey> key;
  {
    db::Session read(db);
    key = loadKey(*read, id);
  }
  requireOwnedBy(key ? std::optional(key->account_id) : std::nullopt, caller.account_id);
  if (caller.fenced && id != caller.key_id) throw ApiError(ErrorCode::KEY_FENCED);
  if (key->mode == "LIVE" && !caller.live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  if (key->revoked) throw ApiError(ErrorCode::CONFLICT, {{"reason", "revoked"}});
  if (key->kind == "SESSION") throw ApiError(ErrorCode::CONFLICT, {{"reason", "session_key"}});
  if (key->oauth) throw ApiError(ErrorCode::CONFLICT, {{"reason", "oauth_grant"}});

  Permissions permissions =
      rotation.permissions.value_or(Permissions::fromJson(nlohmann::json::parse(key->permissions)));
  checkEscalation(db, caller, permissions, rotation.password, now);
  // A rotation that raced this one since the read is caught below: only one revokes the key.
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::optional<std::string> label =
      key->label_ind == soci::i_ok ? std::optional(key->label) : std::nullopt;
  if (rotation.label) label = rotation.label;

  nlohmann::json fresh = insertApiKey(*sql, caller.account_id, *keyModeFromString(key->mode), label,
                                      permissions, key->fence);
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

nlohmann::json changeKey(db::Database& db, const Caller& caller, const std::string& id,
                         const KeyChange& change) {
  if (change.changesFence() && caller.fenced) throw ApiError(ErrorCode::KEY_FENCED);
  db::Session sql(db);
  soci::transaction tx(*sql);
  auto key = loadKey(*sql, id);
  requireOwnedBy(key ? std::optional(key->account_id) : std::nullopt, caller.account_id);
  if (key->kind == "SESSION") throw ApiError(ErrorCode::NOT_FOUND);
  if (key->mode == "LIVE" && !caller.live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  if (key->revoked) throw ApiError(ErrorCode::CONFLICT, {{"reason", "revoked"}});
  KeyFence fence = key->fence;
  if (change.default_deny) fence.default_deny = *change.default_deny;
  if (change.allow_list_id) fence.allow_list_id = *change.allow_list_id;
  if (change.deny_list_id) fence.deny_list_id = *change.deny_list_id;
  requireOwnLists(*sql, caller.account_id, fence);
  std::optional<std::string> label =
      key->label_ind == soci::i_ok ? std::optional(key->label) : std::nullopt;
  if (change.label) label = change.label;
  std::string label_text = label.value_or(""), allow_list = fence.allow_list_id.value_or(""),
              deny_list = fence.deny_list_id.value_or("");
  soci::indicator label_ind = label ? soci::i_ok : soci::i_null,
                  allow_ind = fence.allow_list_id ? soci::i_ok : soci::i_null,
                  deny_ind = fence.deny_list_id ? soci::i_ok : soci::i_null;
  int default_deny = fence.default_deny ? 1 : 0;
  *sql << "UPDATE api_keys SET label = :label, default_deny = :deny::int::boolean, "
          "allow_list_id = :allow_list, deny_list_id = :deny_list WHERE id = :id",
      soci::use(label_text, label_ind), soci::use(default_deny), soci::use(allow_list, allow_ind),
      soci::use(deny_list, deny_ind), soci::use(id);
  auto changed =
      db::queryJson(*sql, "SELECT api_key_resource(k)::text FROM api_keys k WHERE k.id = :id", id);
  tx.commit();
  return *changed;
}

void revokeKey(db::Database& db, const Caller& caller, const std::string& id, TimePoint now) {
  db::Session sql(db);
  auto key = loadKey(*sql, id);
  requireOwnedBy(key ? std::optional(key->account_id) : std::nullopt, caller.account_id);
  if (key->mode == "LIVE" && !caller.live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  if (key->kind == "SESSION") throw ApiError(ErrorCode::NOT_FOUND);
  int revoked = 0;
  std::string at = formatIso(now);
  soci::transaction tx(*sql);
  *sql << "UPDATE api_keys SET revoked_at = :now::timestamptz WHERE id = :id AND revoked_at IS "
          "NULL RETURNING 1",
      soci::use(at), soci::use(id), soci::into(revoked);
  if (!sql->got_data()) throw ApiError(ErrorCode::NOT_FOUND, {{"reason", "already_revoked"}});
  if (key->oauth) {
    // The whole connection ends with its key: its refresh token and what it registered.
    db::endOAuthGrant(*sql, {key->oauth_grant_id, "key_revoked", now});
  }
  tx.commit();
}

}  // namespace smsgw::accounts
