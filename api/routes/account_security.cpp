// How the owner signs in (services/accounts/account_security.h): the password changed, reset by
// an emailed link, the sign-in moved to another email, and a lock of strangers' making passed
// by an emailed link. Links carry their token in the body, never the path (paths are logged).
#include "services/accounts/account_security.h"

#include "api/http/request_text.h"
#include "api/routes/account_path.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/dashboard_session.h"
#include "domain/errors.h"
#include "services/accounts/trusted_browsers.h"

namespace smsgw::api {
namespace {

constexpr size_t kMinPasswordCharacters = 10;

std::string requireNewPassword(const nlohmann::json& body, const char* field) {
  std::string password = requireString(body, field, 200);
  if (utf8Length(password) < kMinPasswordCharacters)
    throw validationError(field, "must be at least 10 characters");
  return password;
}

std::string requireEmailField(const nlohmann::json& body, const char* field) {
  std::string email = requireString(body, field, 254);
  if (!isEmailAddress(email)) throw validationError(field, "must be an email address");
  return email;
}

accounts::OwnerMail ownerMail(App& app) {
  return {app.mailer, app.config.public_base_url};
}

// A link followed proves the browser that followed it (services/accounts/trusted_browsers.h).
ApiResponse withProvenBrowser(App& app, ApiResponse response, const std::string& token) {
  response.headers.emplace_back(
      "Set-Cookie",
      dashboard::browserCookie(
          token, std::chrono::duration_cast<std::chrono::seconds>(accounts::kBrowserTrust),
          app.config.secureCookies()));
  response.headers.emplace_back("Cache-Control", "no-store");
  return response;
}

// The same answer whether or not an account has the email.
ApiResponse sentIfKnown() {
  return ApiResponse::json(202, {{"status", "sent_if_known"}});
}

ApiResponse changePassword(App& app, ApiRequest& req) {
  requireOwnAccountPath(req);
  const auto& body = requireObjectBody(req);
  std::string current = requireString(body, "current_password", 200);
  std::string wanted = requireNewPassword(body, "new_password");
  accounts::changePassword(app.db, ownerMail(app), req.who(), current, wanted, app.clock.now());
  return ApiResponse::noContent();
}

ApiResponse requestEmailChange(App& app, ApiRequest& req) {
  requireOwnAccountPath(req);
  const auto& body = requireObjectBody(req);
  std::string email = requireEmailField(body, "email");
  std::string password = requireString(body, "password", 200);
  return ApiResponse::json(202, accounts::requestEmailChange(app.db, ownerMail(app), req.who(),
                                                             email, password, app.clock.now()));
}

ApiResponse confirmEmailChange(App& app, ApiRequest& req) {
  std::string token = requireString(requireObjectBody(req), "token", 100);
  return ApiResponse::json(
      200, accounts::confirmEmailChange(app.db, ownerMail(app), token, app.clock.now()));
}

ApiResponse requestPasswordReset(App& app, ApiRequest& req) {
  accounts::requestPasswordReset(
      app.db, ownerMail(app), requireEmailField(requireObjectBody(req), "email"), app.clock.now());
  return sentIfKnown();
}

ApiResponse completePasswordReset(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  std::string token = requireString(body, "token", 100);
  std::string password = requireNewPassword(body, "new_password");
  std::string browser =
      accounts::completePasswordReset(app.db, ownerMail(app), token, password, app.clock.now());
  return withProvenBrowser(app, ApiResponse::json(200, {{"status", "password_changed"}}), browser);
}

ApiResponse requestUnlock(App& app, ApiRequest& req) {
  accounts::requestUnlock(app.db, ownerMail(app),
                          requireEmailField(requireObjectBody(req), "email"), app.clock.now());
  return sentIfKnown();
}

ApiResponse confirmUnlock(App& app, ApiRequest& req) {
  std::string token = requireString(requireObjectBody(req), "token", 100);
  std::string browser = accounts::confirmUnlock(app.db, token, app.clock.now());
  return withProvenBrowser(app, ApiResponse::json(200, {{"status", "browser_trusted"}}), browser);
}

}  // namespace

void addAccountSecurityRoutes(Router& router, App& app) {
  // The old password (or the account's, for a new email) is checked, and hashed slowly on
  // purpose: off the reactor threads.
  RouteOptions owner = onSlowLane(needs("account:m"));
  owner.allowed_before_payment = true;
  router.add("POST", "/v1/accounts/{id}/password", owner,
             [&app](ApiRequest& r) { return changePassword(app, r); });
  router.add("POST", "/v1/accounts/{id}/email-change", owner,
             [&app](ApiRequest& r) { return requestEmailChange(app, r); });

  // Before authentication: counted per client address like signup; a reset hashes the new
  // password, so these run on the strangers' lane.
  RouteOptions open;
  open.authenticated = false;
  open.limited_per_address = true;
  open = onSlowLane(open);
  router.add("POST", "/v1/email-changes/confirm", open,
             [&app](ApiRequest& r) { return confirmEmailChange(app, r); });
  router.add("POST", "/v1/password-resets", open,
             [&app](ApiRequest& r) { return requestPasswordReset(app, r); });
  router.add("POST", "/v1/password-resets/confirm", open,
             [&app](ApiRequest& r) { return completePasswordReset(app, r); });
  router.add("POST", "/v1/sessions/unlock", open,
             [&app](ApiRequest& r) { return requestUnlock(app, r); });
  router.add("POST", "/v1/sessions/unlock/confirm", open,
             [&app](ApiRequest& r) { return confirmUnlock(app, r); });
}

}  // namespace smsgw::api
