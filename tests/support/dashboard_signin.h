#pragma once
// A dashboard sign-in as a browser makes it (POST /v1/sessions), with the cookies the answer set
// and the headers a page sends with them (docs/dashboard.md).

#include <optional>
#include <string>

#include "tests/support/http_test_client.h"

namespace smsgw::testing {

struct DashboardSession {
  Reply reply;
  std::string live, test, csrf;
  std::string browser;  // the proven-browser token (smsgw_browser)
  // The session's cookies (and the browser's, when it has one) with the mode header, and the
  // CSRF token unless `with_token` is false.
  Headers cookies(const std::string& mode = "LIVE", bool with_token = true) const;
};

// The value of cookie `name` among the Set-Cookie lines of an answer ("" when absent).
std::string cookieIn(const std::string& set_cookies, const std::string& name);

// Signs in from a browser holding `browser` (a proven-browser token) or none, that names itself
// `user_agent` (none when empty).
DashboardSession signInToDashboard(HttpTestClient& api, const std::string& email,
                                   const std::string& password, const std::string& browser = "",
                                   const std::string& user_agent = "");

}  // namespace smsgw::testing
