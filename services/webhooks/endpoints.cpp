#include "services/webhooks/endpoints.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "domain/ownership.h"
#include "domain/webhook_signature.h"
#include "services/webhooks/delivery_store.h"

namespace smsgw::webhooks {
namespace {

using db::queryJson;
using db::queryJsonArray;

constexpr const char* kWebhookJson = "SELECT api_webhook(w)::text FROM webhooks w WHERE w.id = :id";
// Deactivation by the user, as opposed to the delivery rules (a streak summary, SSRF_BLOCKED).
constexpr const char* kDisabledByUser = "DISABLED_BY_USER";

enum class Access { Read, Change };

// A connected app's token changes only the endpoints its own connection registered: re-pointed
// at the app, an owner's endpoint would go on sending it the account's events after the
// connection ends (docs/oauth.md "What a connection can leave behind").
void requireManageable(soci::session& sql, const Caller& caller, const std::string& id,
                       Access access = Access::Read) {
  std::string owner, mode, grant;
  soci::indicator grant_ind = soci::i_null;
  sql << "SELECT account_id, mode, oauth_grant_id FROM webhooks WHERE id = :id AND "
         "deleted_at IS NULL",
      soci::use(id), soci::into(owner), soci::into(mode), soci::into(grant, grant_ind);
  requireOwnedBy(sql.got_data() ? std::optional(owner) : std::nullopt, caller.account_id);
  if (!caller.live() && mode != "TEST") throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  if (access == Access::Change && caller.oauth_grant_id &&
      (grant_ind != soci::i_ok || grant != *caller.oauth_grant_id))
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "endpoint_of_another_connection"}});
}

void reactivate(soci::session& sql, const std::string& id) {
  sql << "UPDATE webhooks SET active = true, deactivated_reason = NULL, deactivated_at = NULL, "
         "failing_since = NULL, failed_events = 0, streak_notified_at = NULL WHERE id = :id AND "
         "NOT active",
      soci::use(id);
}

// What was still owed becomes dead letters ENDPOINT_DISABLED.
void switchOff(soci::session& sql, const std::string& id, TimePoint now) {
  std::string reason = kDisabledByUser, at = formatIso(now);
  sql << "UPDATE webhooks SET active = false, deactivated_reason = :r, "
         "deactivated_at = :now::timestamptz WHERE id = :id AND active",
      soci::use(reason), soci::use(at), soci::use(id);
  deadLetterOwedEvents(sql, id, dead_letter_reason::kEndpointDisabled, now);
}

}  // namespace

nlohmann::json registerEndpoint(db::Database& db, const Caller& caller, const std::string& url,
                                const nlohmann::json& events) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  // Serializes concurrent registrations of one account so the limit holds.
  *sql << "SELECT id FROM accounts WHERE id = :id FOR UPDATE", soci::use(caller.account_id);
  int count = 0;
  *sql << "SELECT count(*) FROM webhooks WHERE account_id = :a AND deleted_at IS NULL",
      soci::use(caller.account_id), soci::into(count);
  if (count >= kMaxEndpoints)
    throw ApiError(ErrorCode::WEBHOOK_LIMIT_REACHED, {{"limit", kMaxEndpoints}});
  std::string id = newId("wh"), secret = newWebhookSecret(), event_names = events.dump();
  std::string mode(toString(caller.mode));  // what the endpoint will receive
  // Registered by a connected app: it belongs to the connection and ends with it.
  std::string grant = caller.oauth_grant_id.value_or("");
  soci::indicator grant_ind = caller.oauth_grant_id ? soci::i_ok : soci::i_null;
  *sql << "INSERT INTO webhooks (id, account_id, url, events, signing_secret, mode, "
          "oauth_grant_id) VALUES (:id, :a, :url, :events::jsonb, :s, :mode, :grant)",
      soci::use(id), soci::use(caller.account_id), soci::use(url), soci::use(event_names),
      soci::use(secret), soci::use(mode), soci::use(grant, grant_ind);
  auto webhook = queryJson(*sql, kWebhookJson, id);
  tx.commit();
  (*webhook)["signing_secret"] = secret;
  return *webhook;
}

nlohmann::json endpoint(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  requireManageable(*sql, caller, id);
  return *queryJson(*sql, kWebhookJson, id);
}

nlohmann::json listEndpoints(db::Database& db, const Caller& caller) {
  db::Session sql(db);
  std::string query =
      "SELECT api_webhook(w)::text FROM webhooks w WHERE w.account_id = :a AND w.deleted_at IS "
      "NULL" +
      std::string(caller.live() ? "" : " AND w.mode = 'TEST'") + " ORDER BY w.created_at DESC";
  return queryJsonArray(*sql, query, caller.account_id);
}

nlohmann::json changeEndpoint(db::Database& db, const Caller& caller, const std::string& id,
                              const EndpointChange& change, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  requireManageable(*sql, caller, id, Access::Change);
  if (change.url) {
    *sql << "UPDATE webhooks SET url = :u WHERE id = :id", soci::use(*change.url), soci::use(id);
  }
  if (change.events) {
    std::string events = change.events->dump();
    *sql << "UPDATE webhooks SET events = :e::jsonb WHERE id = :id", soci::use(events),
        soci::use(id);
  }
  if (change.active && *change.active) reactivate(*sql, id);
  if (change.active && !*change.active) switchOff(*sql, id, now);
  auto webhook = queryJson(*sql, kWebhookJson, id);
  tx.commit();
  return *webhook;
}

nlohmann::json reactivateEndpoint(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  requireManageable(*sql, caller, id, Access::Change);
  reactivate(*sql, id);
  return *queryJson(*sql, kWebhookJson, id);
}

nlohmann::json rotateEndpointSecret(db::Database& db, const Caller& caller, const std::string& id,
                                    TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  requireManageable(*sql, caller, id, Access::Change);
  std::string secret = newWebhookSecret(), at = formatIso(now);
  *sql << "UPDATE webhooks SET previous_secret = signing_secret, previous_secret_expires_at = "
          ":now::timestamptz + interval '24 hours', signing_secret = :s, "
          "secret_rotated_at = :now2::timestamptz WHERE id = :id",
      soci::use(at), soci::use(secret), soci::use(at), soci::use(id);
  auto webhook = queryJson(*sql, kWebhookJson, id);
  tx.commit();
  (*webhook)["signing_secret"] = secret;
  return *webhook;
}

void deleteEndpoint(db::Database& db, const Caller& caller, const std::string& id, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  requireManageable(*sql, caller, id, Access::Change);
  std::string at = formatIso(now);
  *sql << "UPDATE webhooks SET deleted_at = :now::timestamptz, active = false WHERE id = :id AND "
          "deleted_at IS NULL",
      soci::use(at), soci::use(id);
  *sql << "DELETE FROM webhook_retries WHERE webhook_id = :id", soci::use(id);
  tx.commit();
}

nlohmann::json endpointDeliveries(db::Database& db, const Caller& caller, const std::string& id,
                                  int limit) {
  db::Session sql(db);
  requireManageable(*sql, caller, id);
  return queryJsonArray(*sql,
                        "SELECT api_webhook_delivery(d)::text FROM webhook_deliveries d WHERE "
                        "d.webhook_id = :id ORDER BY d.occurred_at DESC, d.attempt DESC LIMIT " +
                            std::to_string(limit),
                        id);
}

nlohmann::json endpointDeadLetters(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  requireManageable(*sql, caller, id);
  return queryJsonArray(*sql,
                        "SELECT api_webhook_dead_letter(l)::text FROM webhook_dead_letters l "
                        "WHERE l.webhook_id = :id AND l.replayed_at IS NULL "
                        "ORDER BY l.created_at DESC, l.id DESC",
                        id);
}

}  // namespace smsgw::webhooks
