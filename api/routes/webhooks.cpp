// Webhook endpoints (spec "Webhook management"): the URL and event names are checked here,
// the rest is services/webhooks/endpoints.h.
#include <set>

#include "adapters/webhook_target.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "domain/event_types.h"
#include "services/accounts/password_guard.h"
#include "services/webhooks/endpoints.h"

namespace smsgw::api {
namespace {

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
    case TargetVerdict::LookupTimedOut:
      throw validationError("url", "host did not resolve within 3 seconds; try again");
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

// An endpoint receives the account's events, codes in inbound texts included, for as long as it
// lives: made or re-pointed from a dashboard session, which any open browser holds, it needs the
// password again, as a key does (issue 49, item 4; docs/dashboard.md "The step-up").
void requireStepUpFromSessions(App& app, const ApiRequest& req, const nlohmann::json& body) {
  accounts::requireSessionStepUp(app.db, req.who(), optionalString(body, "password", 200),
                                 app.clock.now());
}

ApiResponse createWebhook(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  std::string url = requireUrl(body, app.config.allow_private_webhook_targets);
  requireStepUpFromSessions(app, req, body);
  return ApiResponse::json(201,
                           webhooks::registerEndpoint(app.db, req.who(), url, requireEvents(body)));
}

ApiResponse getWebhook(App& app, ApiRequest& req) {
  return ApiResponse::json(200, webhooks::endpoint(app.db, req.who(), req.params.at("id")));
}

ApiResponse listWebhooks(App& app, ApiRequest& req) {
  return ApiResponse::json(200, {{"data", webhooks::listEndpoints(app.db, req.who())}});
}

ApiResponse patchWebhook(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  webhooks::EndpointChange change;
  if (body.contains("url")) change.url = requireUrl(body, app.config.allow_private_webhook_targets);
  if (body.contains("events")) change.events = requireEvents(body);
  change.active = optionalBool(body, "active");
  if (!change.url && !change.events && !change.active)
    throw validationError("body", "give at least one of url, events, active");
  if (change.url) requireStepUpFromSessions(app, req, body);
  return ApiResponse::json(200, webhooks::changeEndpoint(app.db, req.who(), req.params.at("id"),
                                                         change, app.clock.now()));
}

ApiResponse reactivateWebhook(App& app, ApiRequest& req) {
  return ApiResponse::json(200,
                           webhooks::reactivateEndpoint(app.db, req.who(), req.params.at("id")));
}

ApiResponse rotateSecret(App& app, ApiRequest& req) {
  return ApiResponse::json(
      200, webhooks::rotateEndpointSecret(app.db, req.who(), req.params.at("id"), app.clock.now()));
}

ApiResponse deleteWebhook(App& app, ApiRequest& req) {
  webhooks::deleteEndpoint(app.db, req.who(), req.params.at("id"), app.clock.now());
  return ApiResponse::noContent();
}

ApiResponse listDeliveries(App& app, ApiRequest& req) {
  int limit = queryInteger(req, "limit", 50, 1, 100);
  return ApiResponse::json(
      200, {{"data", webhooks::endpointDeliveries(app.db, req.who(), req.params.at("id"), limit)}});
}

ApiResponse listDeadLetters(App& app, ApiRequest& req) {
  return ApiResponse::json(
      200, {{"data", webhooks::endpointDeadLetters(app.db, req.who(), req.params.at("id"))}});
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
