// API key management (services/accounts/api_keys.h): the body is read here.
#include "services/accounts/api_keys.h"

#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/api_key.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

// A list id given (a string), given as null (clear it), or absent.
std::optional<std::optional<std::string>> listIdIn(const nlohmann::json& body, const char* field) {
  if (!body.contains(field)) return std::nullopt;
  return optionalString(body, field, 100);
}

std::optional<Permissions> permissionsIn(const nlohmann::json& body) {
  if (!body.contains("permissions")) return std::nullopt;
  return Permissions::fromJson(body["permissions"]);
}

ApiResponse createKey(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  auto mode = keyModeFromString(requireString(body, "mode", 10));
  if (!mode) throw validationError("mode", "must be LIVE or TEST");
  accounts::KeyFence fence{optionalBool(body, "default_deny").value_or(false),
                           optionalString(body, "allow_list_id", 100),
                           optionalString(body, "deny_list_id", 100)};
  accounts::NewKey wanted{*mode, optionalString(body, "label", 100), permissionsIn(body), fence,
                          optionalString(body, "password", 200)};
  return ApiResponse::json(201, accounts::createKey(app.db, req.who(), wanted, app.clock.now()));
}

ApiResponse listKeys(App& app, ApiRequest& req) {
  return ApiResponse::json(200, {{"data", accounts::listKeys(app.db, req.who(), app.clock.now())}});
}

ApiResponse rotateKey(App& app, ApiRequest& req) {
  nlohmann::json body = req.body.is_null() ? nlohmann::json::object() : requireObjectBody(req);
  accounts::KeyRotation rotation{permissionsIn(body), optionalString(body, "label", 100),
                                 optionalString(body, "password", 200)};
  return ApiResponse::json(
      200, accounts::rotateKey(app.db, req.who(), req.params.at("id"), rotation, app.clock.now()));
}

ApiResponse changeKey(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  for (const auto& [field, _] : body.items()) {
    if (field != "label" && field != "default_deny" && field != "allow_list_id" &&
        field != "deny_list_id")
      throw validationError(field, "cannot be changed (rotate the key for new permissions)");
  }
  accounts::KeyChange change{optionalString(body, "label", 100), optionalBool(body, "default_deny"),
                             listIdIn(body, "allow_list_id"), listIdIn(body, "deny_list_id")};
  return ApiResponse::json(200,
                           accounts::changeKey(app.db, req.who(), req.params.at("id"), change));
}

ApiResponse revokeKey(App& app, ApiRequest& req) {
  accounts::revokeKey(app.db, req.who(), req.params.at("id"), app.clock.now());
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
  router.add("PATCH", "/v1/api-keys/{id}", needs("api_keys:m"),
             [&app](ApiRequest& r) { return changeKey(app, r); });
  router.add("DELETE", "/v1/api-keys/{id}", needs("api_keys:d"),
             [&app](ApiRequest& r) { return revokeKey(app, r); });
}

}  // namespace smsgw::api
