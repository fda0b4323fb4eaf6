#include "services/accounts/dashboard_sessions.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "services/accounts/api_keys.h"
#include "services/accounts/password_guard.h"
#include "services/accounts/trusted_browsers.h"

namespace smsgw::accounts {
namespace {

// The login answer leaves out what only an account read shows (spec ApiKey).
nlohmann::json withoutAccountReadFields(nlohmann::json key) {
  for (const char* field : {"key", "defaultDeny", "email_domain_ids", "oauth_grant"})
    key.erase(field);
  return key;
}

// A browser's user agent as kept: what a person needs to recognise it, no more.
std::optional<std::string> keptUserAgent(const std::optional<std::string>& user_agent) {
  if (!user_agent || user_agent->empty()) return std::nullopt;
  constexpr size_t kMaxBytes = 300;  // the edge checked it is UTF-8; cut at a character
  if (user_agent->size() <= kMaxBytes) return user_agent;
  size_t end = kMaxBytes;
  while (end > 0 && (static_cast<unsigned char>((*user_agent)[end]) & 0xC0) == 0x80) --end;
  return user_agent->substr(0, end);
}

std::string insertSession(soci::session& sql, const std::string& account_id, const SignIn& attempt,
                          TimePoint now, TimePoint expires_at) {
  std::string id = newId("ses", now), at = formatIso(now), until = formatIso(expires_at);
  auto user_agent = keptUserAgent(attempt.user_agent);
  std::string agent = user_agent.value_or("");
  soci::indicator agent_ind = user_agent ? soci::i_ok : soci::i_null;
  sql << "INSERT INTO dashboard_sessions (id, account_id, client_ip, user_agent, created_at, "
         "expires_at) VALUES (:id, :account, :ip, :agent, :now::timestamptz, :until::timestamptz)",
      soci::use(id), soci::use(account_id), soci::use(attempt.client_ip),
      soci::use(agent, agent_ind), soci::use(at), soci::use(until);
  return id;
}

// Ends the sessions `where` (a condition on :value) picks among the account's open ones, and
// their keys with them.
int endSessionsWhere(soci::session& sql, const std::string& account_id, const char* where,
                     const std::string& value, const std::string& reason, TimePoint now) {
  std::string at = formatIso(now);
  int ended = 0;
  sql << std::string(
             "WITH ended AS (UPDATE dashboard_sessions SET ended_at = :now::timestamptz, "
             "ended_reason = :reason WHERE account_id = :account AND ended_at IS NULL "
             "AND expires_at > :now2::timestamptz AND ") +
             where +
             " RETURNING id), keys AS (UPDATE api_keys SET revoked_at = :now3::timestamptz "
             "WHERE session_id IN (SELECT id FROM ended) AND revoked_at IS NULL) "
             "SELECT count(*) FROM ended",
      soci::use(at), soci::use(reason), soci::use(account_id), soci::use(at), soci::use(value),
      soci::use(at), soci::into(ended);
  return ended;
}

void refuseGrantTokens(const Caller& caller) {
  if (caller.oauth_grant_id)
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "oauth_token_cannot_manage_sign_in"}});
}

}  // namespace

OpenedSession signIn(db::Database& db, const SignIn& attempt, std::chrono::seconds lifetime,
                     TimePoint now) {
  PasswordCheck check =
      checkOwnerPassword(db, {attempt.email, attempt.password, attempt.browser_token}, now);
  if (check.outcome == PasswordCheck::Outcome::Locked) throw passwordLocked(check);
  if (check.outcome != PasswordCheck::Outcome::Matches)
    throw ApiError(ErrorCode::UNAUTHORIZED, {{"reason", "invalid_credentials"}});
  if (check.account_status == AccountStatus::Closed)
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "account_closed"}});

  TimePoint expires_at = now + lifetime;
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string session_id = insertSession(*sql, check.account_id, attempt, now, expires_at);
  nlohmann::json live =
      insertSessionKey(*sql, check.account_id, KeyMode::Live, expires_at, session_id);
  nlohmann::json test =
      insertSessionKey(*sql, check.account_id, KeyMode::Test, expires_at, session_id);
  // The right password proves this browser: a stranger's wrong ones will not lock it out.
  std::string browser_token;
  if (check.browser) {
    touchBrowser(*sql, *check.browser, now);
    browser_token = *attempt.browser_token;
  } else {
    browser_token = trustBrowser(*sql, check.account_id, now);
  }
  auto account = db::queryJson(*sql, "SELECT api_account(a)::text FROM accounts a WHERE a.id = :id",
                               check.account_id);
  tx.commit();

  OpenedSession session;
  session.secrets = {live.at("key").get<std::string>(), test.at("key").get<std::string>()};
  session.browser_token = browser_token;
  session.body = {{"account", *account},
                  {"api_keys", {withoutAccountReadFields(live), withoutAccountReadFields(test)}},
                  {"session_id", session_id},
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
  if (auto session = sessionOfKey(*sql, caller.key_id))
    endSessionsWhere(*sql, caller.account_id, "id = :value", *session, "signed_out", now);
  tx.commit();
}

nlohmann::json openSessions(db::Database& db, const Caller& caller, TimePoint now) {
  refuseGrantTokens(caller);
  db::Session sql(db);
  std::string current = sessionOfKey(*sql, caller.key_id).value_or(""), at = formatIso(now);
  soci::rowset<std::string> rows =
      (sql->prepare << "SELECT jsonb_build_object('id', s.id, 'current', s.id = :current, "
                       "'client_ip', s.client_ip, 'user_agent', s.user_agent, 'created_at', "
                       "iso_ts(s.created_at), 'last_used_at', (SELECT iso_ts(max(k.last_used_at)) "
                       "FROM api_keys k WHERE k.session_id = s.id), 'expires_at', "
                       "iso_ts(s.expires_at))::text FROM dashboard_sessions s WHERE s.account_id "
                       "= :account AND s.ended_at IS NULL AND s.expires_at > :now::timestamptz "
                       "ORDER BY s.created_at DESC, s.id DESC LIMIT 100",
       soci::use(current), soci::use(caller.account_id), soci::use(at));
  nlohmann::json data = nlohmann::json::array();
  for (const auto& row : rows) data.push_back(nlohmann::json::parse(row));
  return {{"data", data}};
}

void endSession(db::Database& db, const Caller& caller, const std::string& session_id,
                TimePoint now) {
  refuseGrantTokens(caller);
  db::Session sql(db);
  soci::transaction tx(*sql);
  int ended =
      endSessionsWhere(*sql, caller.account_id, "id = :value", session_id, "ended_by_owner", now);
  if (ended == 0) throw ApiError(ErrorCode::NOT_FOUND);
  tx.commit();
}

void endEverySession(db::Database& db, const Caller& caller, TimePoint now) {
  refuseGrantTokens(caller);
  db::Session sql(db);
  soci::transaction tx(*sql);
  endSessionsOf(*sql, caller.account_id, std::nullopt, "signed_out_everywhere", now);
  tx.commit();
}

void endSessionsOf(soci::session& sql, const std::string& account_id,
                   const std::optional<std::string>& keep, const std::string& reason,
                   TimePoint now) {
  endSessionsWhere(sql, account_id, "id <> :value", keep.value_or(""), reason, now);
  // Keys of sessions opened before sessions had rows name none: they end too.
  std::string at = formatIso(now);
  sql << "UPDATE api_keys SET revoked_at = :now::timestamptz WHERE account_id = :account AND "
         "kind = 'SESSION' AND session_id IS NULL AND revoked_at IS NULL",
      soci::use(at), soci::use(account_id);
}

std::optional<std::string> sessionOfKey(soci::session& sql, const std::string& key_id) {
  std::string session;
  soci::indicator session_ind = soci::i_null;
  sql << "SELECT session_id FROM api_keys WHERE id = :id", soci::use(key_id),
      soci::into(session, session_ind);
  if (!sql.got_data() || session_ind != soci::i_ok) return std::nullopt;
  return session;
}

}  // namespace smsgw::accounts
