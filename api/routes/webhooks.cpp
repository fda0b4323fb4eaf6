// Webhook endpoints (spec "Webhook management"): register (the signing secret is shown once),
// read, list, change, delete, reactivate, rotate the secret, and the endpoint's attempts and
// unreplayed dead letters.
#include <soci/soci.h>

#include <set>

#include "adapters/webhook_target.h"
#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "domain/event_types.h"
#include "domain/ids.h"
#include "domain/webhook_signature.h"
#include "services/webhooks/delivery_store.h"

namespace smsgw::api {
namespace {

constexpr int kMaxWebhooks = 10;
constexpr const char* kWebhookJson = "SELECT api_webhook(w)::text FROM webhooks w WHERE w.id = :id";
// Deactivation by the user, as opposed to the delivery rules (a streak summary, SSRF_BLOCKED).
constexpr const char* kDisabledByUser = "DISABLED_BY_USER";

std::string requireUrl(const nlohmann::json& body, bool allow_loopback) {
  std::string url = requireString(body, "url", 2048);
  switch (checkWebhookRegistration(url, allow_loopback)) {
    case TargetVerdict::Allowed:
      return url;
    case TargetVerdict::InvalidUrl:
      throw validationError("url",
                            "must be an absolute http or https URL without credentials, with an "
                            "internationalized host in its xn-- form");
    case TargetVerdict::NotHttps:
      throw validationError("url", "must be an https URL");
    case TargetVerdict::Unresolvable:
      throw validationError("url", "host does not resolve");
    case TargetVerdict::PrivateAddress:
      throw ApiError(ErrorCode::VALIDATION_ERROR,
                     nlohmann::json::array({{{"field", "url"},
                                             {"message", "private or loopback address refused"},
                                             {"reason", "SSRF_BLOCKED"}}}));
  }
  throw validationError("url", "invalid");
}

nlohmann::json requireEvents(const nlohmann::json& body) {
  if (!body.contains("events") || !body["events"].is_array() || body["events"].empty()) {
    throw validationError("events", "must be a non-empty array of event names");
  }
  std::set<std::string> seen;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& item : body["events"]) {
    if (!item.is_string() || !isKnownEventType(item.get<std::string>())) {
      throw validationError(
          "events",
          "unknown event name: " + (item.is_string() ? item.get<std::string>() : item.dump()));
    }
    if (seen.insert(item.get<std::string>()).second) out.push_back(item);
  }
  return out;
}

// The path's webhook, checked to be the caller's, and one a TEST key may manage: a TEST key
// manages only the endpoints TEST keys registered (DESIGN.md "Modes and platform texts").
const std::string& ownedWebhook(soci::session& sql, ApiRequest& req) {
  const auto& id = req.params.at("id");
  std::string owner, mode;
  sql << "SELECT account_id, mode FROM webhooks WHERE id = :id AND deleted_at IS NULL",
      soci::use(id), soci::into(owner), soci::into(mode);
  requireOwnedBy(sql.got_data() ? std::optional(owner) : std::nullopt, req.who().account_id);
  if (!req.who().live() && mode != "TEST") throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  return id;
}

ApiResponse createWebhook(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  std::string url = requireUrl(body, app.config.allow_private_webhook_targets);
  std::string events = requireEvents(body).dump();
  const std::string& account_id = req.who().account_id;

  db::Session sql(app.db);
  soci::transaction tx(*sql);
  // Serializes concurrent registrations of one account so the limit holds.
  *sql << "SELECT id FROM accounts WHERE id = :id FOR UPDATE", soci::use(account_id);
  int count = 0;
  *sql << "SELECT count(*) FROM webhooks WHERE account_id = :a AND deleted_at IS NULL",
      soci::use(account_id), soci::into(count);
  if (count >= kMaxWebhooks)
    throw ApiError(ErrorCode::WEBHOOK_LIMIT_REACHED, {{"limit", kMaxWebhooks}});
  std::string id = newId("wh");
  std::string secret = newWebhookSecret();
  std::string mode(toString(req.who().mode));  // what the endpoint will receive
  *sql << "INSERT INTO webhooks (id, account_id, url, events, signing_secret, mode) VALUES (:id, "
          ":a, :url, :events::jsonb, :s, :mode)",
      soci::use(id), soci::use(account_id), soci::use(url), soci::use(events), soci::use(secret),
      soci::use(mode);
  auto webhook = queryJson(*sql, kWebhookJson, id);
  tx.commit();
  (*webhook)["signing_secret"] = secret;
  return ApiResponse::json(201, *webhook);
}

ApiResponse getWebhook(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  return ApiResponse::json(200, *queryJson(*sql, kWebhookJson, ownedWebhook(*sql, req)));
}

ApiResponse listWebhooks(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  // A LIVE key lists every endpoint, a TEST key those TEST keys registered.
  std::string sql_text =
      "SELECT api_webhook(w)::text FROM webhooks w WHERE w.account_id = :a AND w.deleted_at IS "
      "NULL" +
      std::string(req.who().live() ? "" : " AND w.mode = 'TEST'") + " ORDER BY w.created_at DESC";
  return ApiResponse::json(200, {{"data", queryJsonArray(*sql, sql_text, req.who().account_id)}});
}

// Turns the endpoint on again: no streak, nothing missed is resent (spec "Webhook endpoint").
void reactivate(soci::session& sql, const std::string& id) {
  sql << "UPDATE webhooks SET active = true, deactivated_reason = NULL, deactivated_at = NULL, "
         "failing_since = NULL, failed_events = 0, streak_notified_at = NULL WHERE id = :id AND "
         "NOT active",
      soci::use(id);
}

// Switched off by the user: what was still owed becomes dead letters ENDPOINT_DISABLED.
void switchOff(soci::session& sql, const std::string& id, TimePoint now) {
  std::string reason = kDisabledByUser;
  sql << "UPDATE webhooks SET active = false, deactivated_reason = :r, deactivated_at = now() "
         "WHERE id = :id AND active",
      soci::use(reason), soci::use(id);
  webhooks::deadLetterOwedEvents(sql, id, webhooks::dead_letter_reason::kEndpointDisabled, now);
}

ApiResponse patchWebhook(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  std::optional<std::string> url;
  if (body.contains("url")) url = requireUrl(body, app.config.allow_private_webhook_targets);
  std::optional<std::string> events;
  if (body.contains("events")) events = requireEvents(body).dump();
  std::optional<bool> active = optionalBool(body, "active");
  if (!url && !events && !active)
    throw validationError("body", "give at least one of url, events, active");

  db::Session sql(app.db);
  soci::transaction tx(*sql);
  const auto& id = ownedWebhook(*sql, req);
  if (url) *sql << "UPDATE webhooks SET url = :u WHERE id = :id", soci::use(*url), soci::use(id);
  if (events)
    *sql << "UPDATE webhooks SET events = :e::jsonb WHERE id = :id", soci::use(*events),
        soci::use(id);
  if (active && *active) reactivate(*sql, id);
  if (active && !*active) switchOff(*sql, id, app.clock.now());
  auto webhook = queryJson(*sql, kWebhookJson, id);
  tx.commit();
  return ApiResponse::json(200, *webhook);
}

ApiResponse reactivateWebhook(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  const auto& id = ownedWebhook(*sql, req);
  reactivate(*sql, id);
  return ApiResponse::json(200, *queryJson(*sql, kWebhookJson, id));
}

ApiResponse rotateSecret(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  soci::transaction tx(*sql);
  const auto& id = ownedWebhook(*sql, req);
  std::string secret = newWebhookSecret();
  // For 24 hours deliveries carry both signatures (DESIGN.md "Webhook signatures").
  *sql << "UPDATE webhooks SET previous_secret = signing_secret, previous_secret_expires_at = "
          "now() + interval '24 hours', signing_secret = :s, secret_rotated_at = now() "
          "WHERE id = :id",
      soci::use(secret), soci::use(id);
  auto webhook = queryJson(*sql, kWebhookJson, id);
  tx.commit();
  (*webhook)["signing_secret"] = secret;
  return ApiResponse::json(200, *webhook);
}

ApiResponse deleteWebhook(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  soci::transaction tx(*sql);
  const auto& id = ownedWebhook(*sql, req);
  *sql << "UPDATE webhooks SET deleted_at = now(), active = false WHERE id = :id AND deleted_at IS "
          "NULL",
      soci::use(id);
  *sql << "DELETE FROM webhook_retries WHERE webhook_id = :id", soci::use(id);
  tx.commit();
  return ApiResponse::noContent();
}

ApiResponse listDeliveries(App& app, ApiRequest& req) {
  int limit = queryInteger(req, "limit", 50, 1, 100);
  db::Session sql(app.db);
  const auto& id = ownedWebhook(*sql, req);
  return ApiResponse::json(
      200, {{"data", queryJsonArray(*sql,
                                    "SELECT api_webhook_delivery(d)::text FROM webhook_deliveries "
                                    "d WHERE d.webhook_id = :id ORDER BY d.occurred_at DESC, "
                                    "d.attempt DESC LIMIT " +
                                        std::to_string(limit),
                                    id)}});
}

ApiResponse listDeadLetters(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  const auto& id = ownedWebhook(*sql, req);
  return ApiResponse::json(
      200, {{"data", queryJsonArray(*sql,
                                    "SELECT api_webhook_dead_letter(l)::text FROM "
                                    "webhook_dead_letters l WHERE l.webhook_id = :id AND "
                                    "l.replayed_at IS NULL ORDER BY l.created_at DESC, l.id DESC",
                                    id)}});
}

}  // namespace

void addWebhookRoutes(Router& router, App& app) {
  // Registering or changing a URL resolves its host (webhook_target.h).
  router.add("POST", "/v1/webhooks", onSlowLane(needs("webhooks:w")),
             [&app](ApiRequest& r) { return createWebhook(app, r); });
  router.add("GET", "/v1/webhooks", needs("webhooks:r"),
             [&app](ApiRequest& r) { return listWebhooks(app, r); });
  router.add("GET", "/v1/webhooks/{id}", needs("webhooks:r"),
             [&app](ApiRequest& r) { return getWebhook(app, r); });
  router.add("PATCH", "/v1/webhooks/{id}", onSlowLane(needs("webhooks:w")),
             [&app](ApiRequest& r) { return patchWebhook(app, r); });
  router.add("DELETE", "/v1/webhooks/{id}", needs("webhooks:d"),
             [&app](ApiRequest& r) { return deleteWebhook(app, r); });
  router.add("POST", "/v1/webhooks/{id}/reactivate", needs("webhooks:w"),
             [&app](ApiRequest& r) { return reactivateWebhook(app, r); });
  router.add("POST", "/v1/webhooks/{id}/rotate-secret", needs("webhooks:w"),
             [&app](ApiRequest& r) { return rotateSecret(app, r); });
  router.add("GET", "/v1/webhooks/{id}/deliveries", needs("webhooks:r"),
             [&app](ApiRequest& r) { return listDeliveries(app, r); });
  router.add("GET", "/v1/webhooks/{id}/dead-letters", needs("webhooks:r"),
             [&app](ApiRequest& r) { return listDeadLetters(app, r); });
}

}  // namespace smsgw::api
