// Accounts: signup, the account document, the 'me' read, profile changes and the ledger
// (services/accounts/accounts.h); the body and the cursor are read here.
#include "services/accounts/accounts.h"

#include <regex>

#include "api/http/request_text.h"
#include "api/routes/account_path.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "services/oauth/tokens.h"

namespace smsgw::api {
namespace {

std::string requireEmail(const nlohmann::json& body) {
  std::string email = requireString(body, "email", 254);
  if (!isEmailAddress(email)) throw validationError("email", "must be an email address");
  return email;
}

ApiResponse signup(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  std::string name = requireString(body, "name", 200);
  requireReadableName(name, "name", /*may_claim_us=*/false);
  std::string email = requireEmail(body);
  std::string password = requireString(body, "password", 200);
  if (utf8Length(password) < 10)
    throw validationError("password", "must be at least 10 characters");
  if (optionalBool(body, "accept_terms") != true)
    throw validationError("accept_terms", "must be true");

  return ApiResponse::json(
      201,
      accounts::signUp(app.db, {name, email, password, app.config.terms_version}, app.clock.now()));
}

ApiResponse getMe(App& app, ApiRequest& req) {
  nlohmann::json doc = accounts::accountDocument(app.db, req.who().account_id, app.clock.now());
  doc["caller"] = {{"mode", toString(req.who().mode)},
                   {"oauth_client", oauth::connectedClientOfKey(app.db, req.who().key_id)},
                   {"key_id", req.who().key_id}};
  return ApiResponse::json(200, doc);
}

ApiResponse getAccount(App& app, ApiRequest& req) {
  requireOwnAccountPath(req);
  return ApiResponse::json(
      200, accounts::accountDocument(app.db, req.who().account_id, app.clock.now()));
}

ApiResponse patchAccount(App& app, ApiRequest& req) {
  requireOwnAccountPath(req);
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  const auto& body = requireObjectBody(req);
  accounts::AccountChange change;
  change.name = optionalString(body, "name", 200);
  if (change.name && change.name->empty()) throw validationError("name", "must not be empty");
  if (change.name) requireReadableName(*change.name, "name", /*may_claim_us=*/false);
  if (body.contains("sender_name")) {
    change.sender_name = optionalString(body, "sender_name", 40);
    if (*change.sender_name) requireBrandName(**change.sender_name, "sender_name");
  }
  // The sign-in email moves only with the password and the new address's proof (issue 49).
  if (body.contains("email"))
    throw validationError("email",
                          "is changed with POST /v1/accounts/{id}/email-change (the password, and "
                          "a link the new address follows)");
  for (const auto& [field, _] : body.items()) {
    if (field != "name" && field != "sender_name")
      throw validationError(field, "cannot be changed here");
  }
  return ApiResponse::json(
      200, accounts::changeAccount(app.db, req.who().account_id, change, app.clock.now()));
}

ApiResponse listTransactions(App& app, ApiRequest& req) {
  requireOwnAccountPath(req);
  int limit = queryInteger(req, "limit", 25, 1, 100);
  long long before = std::numeric_limits<long long>::max();
  if (auto it = req.query.find("before"); it != req.query.end() && !it->second.empty()) {
    static const std::regex kCursor(R"(txn_(\d{1,18}))");
    std::smatch m;
    if (!std::regex_match(it->second, m, kCursor))
      throw validationError("before", "must be a transaction id (txn_…)");
    before = std::stoll(m[1]);
  }
  return ApiResponse::json(200, accounts::ledgerPage(app.db, req.who().account_id, before, limit));
}

}  // namespace

void addAccountRoutes(Router& router, App& app) {
  RouteOptions open;
  open.authenticated = false;
  open.limited_per_address = true;  // no key to count by, and the password is hashed slowly
  router.add("POST", "/v1/accounts", onSlowLane(open),
             [&app](ApiRequest& r) { return signup(app, r); });

  RouteOptions read = needs("account:r");
  read.allowed_before_payment = true;
  RouteOptions modify = needs("account:m");
  modify.allowed_before_payment = true;
  RouteOptions me;  // every key may read whose it is
  me.allowed_before_payment = true;
  router.add("GET", "/v1/accounts/me", me, [&app](ApiRequest& r) { return getMe(app, r); });
  router.add("GET", "/v1/accounts/{id}", read,
             [&app](ApiRequest& r) { return getAccount(app, r); });
  router.add("PATCH", "/v1/accounts/{id}", modify,
             [&app](ApiRequest& r) { return patchAccount(app, r); });
  router.add("GET", "/v1/accounts/{id}/transactions", read,
             [&app](ApiRequest& r) { return listTransactions(app, r); });
}

}  // namespace smsgw::api
