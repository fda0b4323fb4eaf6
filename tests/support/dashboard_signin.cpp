#include "tests/support/dashboard_signin.h"

#include <regex>

namespace smsgw::testing {

Headers DashboardSession::cookies(const std::string& mode, bool with_token) const {
  std::string jar = "smsgw_live=" + live + "; smsgw_test=" + test;
  if (!browser.empty()) jar += "; smsgw_browser=" + browser;
  Headers headers{{"Cookie", jar}, {"X-Dashboard-Mode", mode}};
  if (with_token) headers.emplace_back("X-CSRF-Token", csrf);
  return headers;
}

std::string cookieIn(const std::string& set_cookies, const std::string& name) {
  std::smatch m;
  std::regex pattern("(^|\n)" + name + "=([^;]*)");
  return std::regex_search(set_cookies, m, pattern) ? m[2].str() : "";
}

DashboardSession signInToDashboard(HttpTestClient& api, const std::string& email,
                                   const std::string& password, const std::string& browser,
                                   const std::string& user_agent) {
  DashboardSession session;
  Headers headers;
  if (!browser.empty()) headers.emplace_back("Cookie", "smsgw_browser=" + browser);
  if (!user_agent.empty()) headers.emplace_back("User-Agent", user_agent);
  session.reply =
      api.call("POST", "/v1/sessions", headers, {{"email", email}, {"password", password}});
  std::string cookies = session.reply.header("set-cookie");
  session.live = cookieIn(cookies, "smsgw_live");
  session.test = cookieIn(cookies, "smsgw_test");
  session.csrf = cookieIn(cookies, "smsgw_csrf");
  session.browser = cookieIn(cookies, "smsgw_browser");
  return session;
}

}  // namespace smsgw::testing
