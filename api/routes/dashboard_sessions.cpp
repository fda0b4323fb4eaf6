// The dashboard's sign-in and sign-out (services/accounts/dashboard_sessions.h): the session's
// keys go to the browser as cookies (domain/dashboard_session.h), never in the body.
#include "services/accounts/dashboard_sessions.h"

#include "api/http/presented_key.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"

namespace smsgw::api {
namespace {

bool servedOverHttps(const App& app) {
  return app.config.public_base_url.starts_with("https://");
}

ApiResponse signIn(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  std::string email = requireString(body, "email", 254);
  std::string password = requireString(body, "password", 200);
  auto session =
      accounts::signIn(app.db, email, password, app.config.dashboard_session_ttl, app.clock.now());
  auto response = ApiResponse::json(201, std::move(session.body));
  for (auto& cookie : dashboard::openingCookies(session.secrets, app.config.dashboard_session_ttl,
                                                servedOverHttps(app)))
    response.headers.emplace_back("Set-Cookie", std::move(cookie));
  response.headers.emplace_back("Cache-Control", "no-store");
  return response;
}

ApiResponse signOut(App& app, ApiRequest& req) {
  accounts::signOut(app.db, req.who(), sessionKeyHashesIn(req), app.clock.now());
  auto response = ApiResponse::noContent();
  for (auto& cookie : dashboard::closingCookies(servedOverHttps(app)))
    response.headers.emplace_back("Set-Cookie", std::move(cookie));
  return response;
}

}  // namespace

void addDashboardSessionRoutes(Router& router, App& app) {
  RouteOptions open;
  open.authenticated = false;
  open.limited_per_address = true;  // no key to count by, and the password is hashed slowly
  router.add("POST", "/v1/sessions", onSlowLane(open),
             [&app](ApiRequest& r) { return signIn(app, r); });
  RouteOptions session;  // whatever the account's state, its owner may sign out
  session.allowed_before_payment = true;
  session.handles_suspended_accounts = true;
  router.add("DELETE", "/v1/sessions/current", session,
             [&app](ApiRequest& r) { return signOut(app, r); });
}

}  // namespace smsgw::api
