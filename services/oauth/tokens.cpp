#include "services/oauth/tokens.h"

#include <soci/soci.h>

#include <optional>

#include "db/procedures/end_oauth_grant.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "domain/oauth_scope.h"
#include "domain/pkce.h"
#include "services/accounts/api_keys.h"

namespace smsgw::oauth {
namespace {

std::string formValue(const std::map<std::string, std::string>& form, const char* name) {
  auto it = form.find(name);
  return it == form.end() ? "" : it->second;
}

std::string required(const std::map<std::string, std::string>& form, const char* name) {
  std::string value = formValue(form, name);
  if (value.empty())
    throw ApiError(ErrorCode::OAUTH_INVALID_REQUEST,
                   {{"parameter", name}, {"problem", "is required"}});
  return value;
}

ApiError invalidGrant(const char* reason) {
  return ApiError(ErrorCode::OAUTH_INVALID_GRANT, {{"reason", reason}});
}

struct Grant {
  std::string id;
  std::string client_id;
  std::string client_name;
  std::string account_id;
  std::string mode;
  std::string permissions;  // JSON text
  std::optional<std::string> resource;
};

// A new access key and refresh token for the grant, replacing those it held.
nlohmann::json issueForGrant(soci::session& sql, const Grant& grant, const Permissions& scope,
                             const TokenLifetimes& lifetimes, TimePoint now) {
  std::string at = formatIso(now);
  sql << "UPDATE api_keys SET revoked_at = :now::timestamptz WHERE oauth_grant_id = :id AND "
         "revoked_at IS NULL",
      soci::use(at), soci::use(grant.id);
  nlohmann::json key = accounts::insertApiKey(
      sql, grant.account_id, *keyModeFromString(grant.mode), "OAuth: " + grant.client_name, scope,
      {}, accounts::OAuthHolding{grant.id, now + lifetimes.access, grant.resource});
  std::string refresh = "mrt_" + crypto::hex(crypto::randomBytes(32));
  std::string refresh_hash = crypto::sha256Hex(refresh);
  std::string refresh_until = formatIso(now + lifetimes.refresh);
  sql << "UPDATE oauth_grants SET refresh_token_hash = :hash, refresh_expires_at = "
         ":until::timestamptz WHERE id = :id",
      soci::use(refresh_hash), soci::use(refresh_until), soci::use(grant.id);
  return {{"access_token", key["key"]},
          {"token_type", "Bearer"},
          {"expires_in", lifetimes.access.count()},
          {"refresh_token", refresh},
          {"scope", scopeOf(scope)}};
}

// The scope a token request asks for: the grant's when none is named, never more.
Permissions scopeWithin(const std::map<std::string, std::string>& form,
                        const std::string& granted_json) {
  Permissions granted = Permissions::fromJson(nlohmann::json::parse(granted_json));
  std::string asked = formValue(form, "scope");
  if (asked.empty()) return granted;
  auto narrowed = permissionsOfScope(asked);
  if (!narrowed || !narrowed->isSubsetOf(granted) || narrowed->toJson().empty())
    throw ApiError(ErrorCode::OAUTH_INVALID_SCOPE);
  return *narrowed;
}

void requireSameResource(const std::map<std::string, std::string>& form,
                         const std::optional<std::string>& bound) {
  std::string asked = formValue(form, "resource");
  if (!asked.empty() && asked != bound.value_or(""))
    throw ApiError(ErrorCode::OAUTH_INVALID_TARGET, {{"resource", asked}});
}

std::string clientName(soci::session& sql, const std::string& client_id) {
  std::string name;
  sql << "SELECT client_name FROM oauth_clients WHERE id = :id", soci::use(client_id),
      soci::into(name);
  return name;
}

nlohmann::json exchangeCode(db::Database& db, const std::map<std::string, std::string>& form,
                            const TokenLifetimes& lifetimes, TimePoint now) {
  std::string code = required(form, "code"), verifier = required(form, "code_verifier");
  std::string client_id = required(form, "client_id");
  std::string code_hash = crypto::sha256Hex(code), at = formatIso(now);
  db::Session sql(db);
  soci::transaction tx(*sql);
  Grant grant;
  std::string redirect_uri, challenge, resource, made_grant;
  soci::indicator resource_ind = soci::i_null, made_ind = soci::i_null;
  int expired = 0, used = 0;
  *sql << "SELECT client_id, account_id, mode, permissions::text, resource, redirect_uri, "
          "code_challenge, (expires_at <= :now::timestamptz)::int, (used_at IS NOT NULL)::int, "
          "grant_id FROM oauth_codes WHERE code_hash = :hash FOR UPDATE",
      soci::use(at), soci::use(code_hash), soci::into(grant.client_id),
      soci::into(grant.account_id), soci::into(grant.mode), soci::into(grant.permissions),
      soci::into(resource, resource_ind), soci::into(redirect_uri), soci::into(challenge),
      soci::into(expired), soci::into(used), soci::into(made_grant, made_ind);
  if (!sql->got_data()) throw invalidGrant("unknown_code");
  if (used) {
    // Someone else has the code: whatever it made is theirs too, so it goes.
    if (made_ind == soci::i_ok) db::endOAuthGrant(*sql, {made_grant, "code_reused", now});
    tx.commit();
    throw invalidGrant("code_reused");
  }
  if (grant.client_id != client_id) throw invalidGrant("other_client");
  if (expired) throw invalidGrant("code_expired");
  std::string presented_redirect = formValue(form, "redirect_uri");
  if (!presented_redirect.empty() && presented_redirect != redirect_uri)
    throw invalidGrant("redirect_uri_mismatch");
  if (!verifierMatches(challenge, verifier)) throw invalidGrant("code_verifier_mismatch");
  if (resource_ind == soci::i_ok) grant.resource = resource;
  requireSameResource(form, grant.resource);
  Permissions scope = scopeWithin(form, grant.permissions);

  grant.id = newId("ogr");
  grant.client_name = clientName(*sql, grant.client_id);
  *sql << "INSERT INTO oauth_grants (id, account_id, client_id, mode, permissions, resource, "
          "created_at) VALUES (:id, :account, :client, :mode, :permissions::jsonb, :resource, "
          ":now::timestamptz)",
      soci::use(grant.id), soci::use(grant.account_id), soci::use(grant.client_id),
      soci::use(grant.mode), soci::use(grant.permissions), soci::use(resource, resource_ind),
      soci::use(at);
  *sql << "UPDATE oauth_codes SET used_at = :now::timestamptz, grant_id = :grant WHERE "
          "code_hash = :hash",
      soci::use(at), soci::use(grant.id), soci::use(code_hash);
  nlohmann::json tokens = issueForGrant(*sql, grant, scope, lifetimes, now);
  tx.commit();
  return tokens;
}

nlohmann::json refresh(db::Database& db, const std::map<std::string, std::string>& form,
                       const TokenLifetimes& lifetimes, TimePoint now) {
  std::string token = required(form, "refresh_token"), client_id = required(form, "client_id");
  std::string token_hash = crypto::sha256Hex(token), at = formatIso(now);
  db::Session sql(db);
  soci::transaction tx(*sql);
  Grant grant;
  std::string resource;
  soci::indicator resource_ind = soci::i_null;
  int usable = 0;
  *sql << "SELECT id, client_id, account_id, mode, permissions::text, resource, "
          "(revoked_at IS NULL AND refresh_expires_at > :now::timestamptz)::int "
          "FROM oauth_grants WHERE refresh_token_hash = :hash FOR UPDATE",
      soci::use(at), soci::use(token_hash), soci::into(grant.id), soci::into(grant.client_id),
      soci::into(grant.account_id), soci::into(grant.mode), soci::into(grant.permissions),
      soci::into(resource, resource_ind), soci::into(usable);
  if (!sql->got_data()) {
    std::string spent_grant;
    *sql << "SELECT grant_id FROM oauth_spent_refresh_tokens WHERE token_hash = :hash",
        soci::use(token_hash), soci::into(spent_grant);
    if (!sql->got_data()) throw invalidGrant("unknown_refresh_token");
    db::endOAuthGrant(*sql, {spent_grant, "refresh_token_reused", now});
    tx.commit();
    throw invalidGrant("refresh_token_reused");
  }
  if (grant.client_id != client_id) throw invalidGrant("other_client");
  if (!usable) throw invalidGrant("refresh_token_expired_or_revoked");
  if (resource_ind == soci::i_ok) grant.resource = resource;
  requireSameResource(form, grant.resource);
  Permissions scope = scopeWithin(form, grant.permissions);
  *sql << "INSERT INTO oauth_spent_refresh_tokens (token_hash, grant_id, spent_at) VALUES "
          "(:hash, :grant, :now::timestamptz)",
      soci::use(token_hash), soci::use(grant.id), soci::use(at);
  grant.client_name = clientName(*sql, grant.client_id);
  nlohmann::json tokens = issueForGrant(*sql, grant, scope, lifetimes, now);
  tx.commit();
  return tokens;
}

}  // namespace

nlohmann::json issueTokens(db::Database& db, const std::map<std::string, std::string>& form,
                           const TokenLifetimes& lifetimes, TimePoint now) {
  std::string grant_type = required(form, "grant_type");
  if (grant_type == "authorization_code") return exchangeCode(db, form, lifetimes, now);
  if (grant_type == "refresh_token") return refresh(db, form, lifetimes, now);
  throw ApiError(ErrorCode::OAUTH_UNSUPPORTED_GRANT_TYPE);
}

void revokeToken(db::Database& db, const std::map<std::string, std::string>& form, TimePoint now) {
  std::string token = required(form, "token"), client_id = required(form, "client_id");
  std::string hint = formValue(form, "token_type_hint");
  if (!hint.empty() && hint != "access_token" && hint != "refresh_token")
    throw ApiError(ErrorCode::OAUTH_UNSUPPORTED_TOKEN_TYPE);
  // Either kind of token names its grant; the hint only says where to look first (RFC 7009 2.1).
  std::string token_hash = crypto::sha256Hex(token);
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string grant_id;
  *sql << "SELECT g.id FROM oauth_grants g WHERE g.client_id = :client AND "
          "(g.refresh_token_hash = :hash OR g.id = (SELECT k.oauth_grant_id FROM api_keys k "
          "WHERE k.key_hash = :hash2)) FOR UPDATE",
      soci::use(client_id), soci::use(token_hash), soci::use(token_hash), soci::into(grant_id);
  if (!sql->got_data()) return;
  // Its refresh token, every key it holds and every endpoint it registered stop in this
  // transaction.
  db::endOAuthGrant(*sql, {grant_id, "revoked_by_client", now});
  tx.commit();
}

nlohmann::json connectedClientOfKey(db::Database& db, const std::string& key_id) {
  db::Session sql(db);
  std::string id, name;
  *sql << "SELECT c.id, c.client_name FROM api_keys k JOIN oauth_grants g ON g.id = "
          "k.oauth_grant_id JOIN oauth_clients c ON c.id = g.client_id WHERE k.id = :id",
      soci::use(key_id), soci::into(id), soci::into(name);
  if (!sql->got_data()) return nullptr;
  return {{"id", id}, {"name", name}};
}

}  // namespace smsgw::oauth
