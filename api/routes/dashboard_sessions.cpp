// The dashboard's sessions (services/accounts/dashboard_sessions.h): sign-in and sign-out, and
// the owner's list of open sessions, ending one or all. The session's keys go to the browser as
// cookies (domain/dashboard_session.h), never in the body, and so does the proven-browser token.
#include "services/accounts/dashboard_sessions.h"

#include "api/http/presented_key.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "services/accounts/trusted_browsers.h"

namespace smsgw::api {
namespace {

void addSetCookies(ApiResponse& response, std::vector<std::string> cookies) {
  for (auto& cookie : cookies) response.headers.emplace_back("Set-Cookie", std::move(cookie));
}

ApiResponse signIn(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  accounts::SignIn attempt{requireString(body, "email", 254), requireString(body, "password", 200),
                           browserTokenIn(req, app.config.secureCookies()), req.client_ip,
                           req.header("user-agent")};
  auto session =
      accounts::signIn(app.db, attempt, app.config.dashboard_session_ttl, app.clock.now());
  auto response = ApiResponse::json(201, std::move(session.body));
  bool secure = app.config.secureCookies();
  addSetCookies(response, dashboard::openingCookies(session.secrets,
                                                    app.config.dashboard_session_ttl, secure));
  addSetCookies(
      response,
      {dashboard::browserCookie(
          session.browser_token,
          std::chrono::duration_cast<std::chrono::seconds>(accounts::kBrowserTrust), secure)});
  response.headers.emplace_back("Cache-Control", "no-store");
  return response;
}

ApiResponse signOut(App& app, ApiRequest& req) {
  bool secure = app.config.secureCookies();
  accounts::signOut(app.db, req.who(), sessionKeyHashesIn(req, secure), app.clock.now());
  auto response = ApiResponse::noContent();
  addSetCookies(response, dashboard::closingCookies(secure));
  return response;
}

ApiResponse listSessions(App& app, ApiRequest& req) {
  return ApiResponse::json(200, accounts::openSessions(app.db, req.who(), app.clock.now()));
}

ApiResponse endSession(App& app, ApiRequest& req) {
  accounts::endSession(app.db, req.who(), req.params.at("id"), app.clock.now());
  return ApiResponse::noContent();
}

ApiResponse endEverySession(App& app, ApiRequest& req) {
  accounts::endEverySession(app.db, req.who(), app.clock.now());
  auto response = ApiResponse::noContent();
  // The caller's own session ended too: its browser forgets the cookies.
  if (req.who().dashboard_session)
    addSetCookies(response, dashboard::closingCookies(app.config.secureCookies()));
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

  RouteOptions read = needs("account:r");
  read.allowed_before_payment = true;
  read.handles_suspended_accounts = true;
  RouteOptions end = needs("account:m");
  end.allowed_before_payment = true;
  end.handles_suspended_accounts = true;
  router.add("GET", "/v1/sessions", read, [&app](ApiRequest& r) { return listSessions(app, r); });
  router.add("DELETE", "/v1/sessions", end,
             [&app](ApiRequest& r) { return endEverySession(app, r); });
  router.add("DELETE", "/v1/sessions/{id}", end,
             [&app](ApiRequest& r) { return endSession(app, r); });
}

}  // namespace smsgw::api
