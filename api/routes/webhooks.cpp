// Webhook endpoints: register (the signing secret is shown once), read, list, delete.
#include <soci/soci.h>

#include <set>

#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "domain/event_types.h"
#include "domain/ids.h"
#include "domain/webhook_signature.h"
#include "domain/webhook_target.h"

namespace smsgw::api {
namespace {

constexpr int kMaxWebhooks = 10;
constexpr const char* kWebhookJson = "SELECT api_webhook(w)::text FROM webhooks w WHERE w.id = :id";

std::string requireUrl(const nlohmann::json& body, bool allow_private) {
  std::string url = requireString(body, "url", 2048);
  switch (checkWebhookTarget(url, allow_private)) {
    case TargetVerdict::Allowed:
      return url;
    case TargetVerdict::InvalidUrl:
      throw validationError("url", "must be an absolute http or https URL");
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

std::optional<std::string> ownerOf(soci::session& sql, const std::string& id) {
  std::string owner;
  sql << "SELECT account_id FROM webhooks WHERE id = :id AND deleted_at IS NULL", soci::use(id),
      soci::into(owner);
  if (!sql.got_data()) return std::nullopt;
  return owner;
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
  *sql << "INSERT INTO webhooks (id, account_id, url, events, signing_secret) VALUES (:id, :a, "
          ":url, :events::jsonb, :s)",
      soci::use(id), soci::use(account_id), soci::use(url), soci::use(events), soci::use(secret);
  auto webhook = queryJson(*sql, kWebhookJson, id);
  tx.commit();
  (*webhook)["signing_secret"] = secret;
  return ApiResponse::json(201, *webhook);
}

ApiResponse getWebhook(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  const auto& id = req.params.at("id");
  requireOwnedBy(ownerOf(*sql, id), req.who().account_id);
  return ApiResponse::json(200, *queryJson(*sql, kWebhookJson, id));
}

ApiResponse listWebhooks(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  return ApiResponse::json(
      200, {{"data",
             queryJsonArray(*sql,
                            "SELECT api_webhook(w)::text FROM webhooks w WHERE "
                            "w.account_id = :a AND w.deleted_at IS NULL ORDER BY w.created_at DESC",
                            req.who().account_id)}});
}

ApiResponse deleteWebhook(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  const auto& id = req.params.at("id");
  requireOwnedBy(ownerOf(*sql, id), req.who().account_id);
  *sql << "UPDATE webhooks SET deleted_at = now(), active = false WHERE id = :id AND deleted_at IS "
          "NULL",
      soci::use(id);
  return ApiResponse::noContent();
}

}  // namespace

void addWebhookRoutes(Router& router, App& app) {
  router.add("POST", "/v1/webhooks", needs("webhooks:w"),
             [&app](ApiRequest& r) { return createWebhook(app, r); });
  router.add("GET", "/v1/webhooks", needs("webhooks:r"),
             [&app](ApiRequest& r) { return listWebhooks(app, r); });
  router.add("GET", "/v1/webhooks/{id}", needs("webhooks:r"),
             [&app](ApiRequest& r) { return getWebhook(app, r); });
  router.add("DELETE", "/v1/webhooks/{id}", needs("webhooks:d"),
             [&app](ApiRequest& r) { return deleteWebhook(app, r); });
}

}  // namespace smsgw::api
