#include "services/accounts/dashboard_sessions.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/errors.h"
#include "services/accounts/api_keys.h"
#include "services/accounts/password_guard.h"

namespace smsgw::accounts {
namespace {

// The login answer leaves out what only an account read shows (spec ApiKey).
nlohmann::json withoutAccountReadFields(nlohmann::json key) {
  for (const char* field : {"key", "defaultDeny", "email_domain_ids", "oauth_grant"})
    key.erase(field);
  return key;
}

}  // namespace

OpenedSession signIn(db::Database& db, const std::string& email, const std::string& password,
                     std::chrono::seconds lifetime, TimePoint now) {
  PasswordCheck check = checkOwnerPassword(db, email, password, now);
  if (check.outcome == PasswordCheck::Outcome::Locked) throw passwordLocked(check);
  if (check.outcome != PasswordCheck::Outcome::Matches)
    throw ApiError(ErrorCode::UNAUTHORIZED, {{"reason", "invalid_credentials"}});
  if (check.account_status == "CLOSED")
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "account_closed"}});

  TimePoint expires_at = now + lifetime;
  db::Session sql(db);
  soci::transaction tx(*sql);
  nlohmann::json live = insertSessionKey(*sql, check.account_id, KeyMode::Live, expires_at);
  nlohmann::json test = insertSessionKey(*sql, check.account_id, KeyMode::Test, expires_at);
  auto account = db::queryJson(*sql, "SELECT api_account(a)::text FROM accounts a WHERE a.id = :id",
                               check.account_id);
  tx.commit();

  OpenedSession session;
  session.secrets = {live.at("key").get<std::string>(), test.at("key").get<std::string>()};
  session.body = {{"account", *account},
                  {"api_keys", {withoutAccountReadFields(live), withoutAccountReadFields(test)}},
                  {"expires_at", formatIso(expires_at)},
                  {"csrf_token", dashboard::csrfTokenFor(session.secrets.live)}};
  return session;
}

void signOut(db::Database& db, const Caller& caller, const std::vector<std::string>& key_hashes,
             TimePoint now) {
  if (!caller.dashboard_session)
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "not_a_session"}});
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string at = formatIso(now), hashes = nlohmann::json(key_hashes).dump();
  // Only session keys of the caller's own account: a cookie of another session ends nothing.
  *sql << "UPDATE api_keys SET revoked_at = :now::timestamptz WHERE revoked_at IS NULL AND "
          "kind = 'SESSION' AND account_id = :account AND (id = :id OR key_hash IN (SELECT "
          "jsonb_array_elements_text(:hashes::jsonb)))",
      soci::use(at), soci::use(caller.account_id), soci::use(caller.key_id), soci::use(hashes);
  tx.commit();
}

}  // namespace smsgw::accounts
