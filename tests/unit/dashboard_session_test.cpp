// The dashboard session's cookies and CSRF token, and which key a request presents with them.
#include "domain/dashboard_session.h"

#include <gtest/gtest.h>

#include "api/http/presented_key.h"
#include "domain/errors.h"

using namespace smsgw;
using namespace smsgw::dashboard;

namespace {

api::ApiRequest cookieRequest(const std::string& method, const std::string& path) {
  api::ApiRequest req;
  req.method = method;
  req.path = path;
  req.headers["cookie"] = "theme=dark; smsgw_live=mk_live_one; smsgw_test=mk_test_two";
  return req;
}

ErrorCode refusalOf(const api::ApiRequest& req) {
  try {
    api::presentedKey(req);
  } catch (const ApiError& e) {
    return e.code();
  }
  return ErrorCode::INTERNAL_ERROR;
}

}  // namespace

TEST(DashboardCookies, ValuesAreFoundByTheirWholeName) {
  EXPECT_EQ(cookieValue("a=1; smsgw_live=mk_live_x ;b=2", "smsgw_live"), "mk_live_x");
  EXPECT_EQ(cookieValue("xsmsgw_live=stolen; smsgw_live_old=no", "smsgw_live"), std::nullopt);
  EXPECT_EQ(cookieValue("smsgw_csrf=\"abc\"", "smsgw_csrf"), "abc");
  EXPECT_EQ(cookieValue("", "smsgw_live"), std::nullopt);
  EXPECT_EQ(cookieValue("novalue; ;=;smsgw_test=", "smsgw_test"), "");
}

TEST(DashboardCookies, TheCsrfTokenBelongsToItsSessionAlone) {
  std::string token = csrfTokenFor("mk_live_one");
  EXPECT_EQ(token.size(), 64U);
  EXPECT_TRUE(csrfTokenMatches("mk_live_one", token));
  EXPECT_FALSE(csrfTokenMatches("mk_live_two", token));
  EXPECT_FALSE(csrfTokenMatches("mk_live_one", token.substr(1)));
  EXPECT_FALSE(csrfTokenMatches("mk_live_one", ""));
  EXPECT_EQ(token.find("mk_live_one"), std::string::npos);
}

TEST(DashboardCookies, OpeningAndClosingCookiesAreStrictAndOnlyTheTokenIsReadable) {
  auto opening = openingCookies({"mk_live_one", "mk_test_two"}, std::chrono::seconds(60), false);
  ASSERT_EQ(opening.size(), 3U);
  EXPECT_EQ(opening[0], "smsgw_live=mk_live_one; Path=/v1; Max-Age=60; SameSite=Strict; HttpOnly");
  EXPECT_EQ(opening[2],
            "smsgw_csrf=" + csrfTokenFor("mk_live_one") + "; Path=/; Max-Age=60; SameSite=Strict");
  for (const auto& cookie : closingCookies(false)) {
    EXPECT_NE(cookie.find("=; "), std::string::npos) << cookie;
    EXPECT_NE(cookie.find("Max-Age=0"), std::string::npos) << cookie;
  }
}

TEST(PresentedKey, TheCookieOfTheNamedModeAuthenticatesReads) {
  auto req = cookieRequest("GET", "/v1/messages");
  EXPECT_EQ(api::presentedKey(req)->secret, "mk_live_one");
  EXPECT_TRUE(api::presentedKey(req)->from_session_cookie);
  req.headers["x-dashboard-mode"] = "TEST";
  EXPECT_EQ(api::presentedKey(req)->secret, "mk_test_two");
  req.headers["x-dashboard-mode"] = "test";
  EXPECT_EQ(refusalOf(req), ErrorCode::FST_ERR_BAD_REQUEST);
}

TEST(PresentedKey, ChangesNeedTheSessionsToken) {
  for (const char* method : {"POST", "PATCH", "PUT", "DELETE", "OPTIONS"}) {
    auto req = cookieRequest(method, "/v1/messages");
    EXPECT_EQ(refusalOf(req), ErrorCode::FORBIDDEN) << method;
    req.headers["x-csrf-token"] = csrfTokenFor("mk_test_two");  // the other key's: not the token
    EXPECT_EQ(refusalOf(req), ErrorCode::FORBIDDEN) << method;
    req.headers["x-csrf-token"] = csrfTokenFor("mk_live_one");
    EXPECT_EQ(api::presentedKey(req)->secret, "mk_live_one") << method;
  }
}

TEST(PresentedKey, AHeaderKeyWinsAndOtherEndpointsIgnoreTheCookies) {
  auto req = cookieRequest("POST", "/v1/messages");
  req.headers["authorization"] = "Bearer mk_test_header";
  auto key = api::presentedKey(req);
  EXPECT_EQ(key->secret, "mk_test_header");
  EXPECT_FALSE(key->from_session_cookie);
  EXPECT_EQ(api::presentedKey(cookieRequest("POST", "/mcp")), std::nullopt);
  EXPECT_EQ(api::presentedKey(cookieRequest("GET", "/oauth/authorize")), std::nullopt);
  api::ApiRequest none;
  none.method = "GET";
  none.path = "/v1/messages";
  EXPECT_EQ(api::presentedKey(none), std::nullopt);
}

// Issue 49, finding 6: over HTTPS the cookies take the __Host- prefix, which a browser keeps
// only from this very host, Secure, for Path=/ and no Domain; and only those names count then.
TEST(DashboardCookies, OverHttpsEveryCookieIsAHostCookie) {
  auto opening = openingCookies({"mk_live_one", "mk_test_two"}, std::chrono::seconds(60), true);
  ASSERT_EQ(opening.size(), 3U);
  EXPECT_EQ(opening[0],
            "__Host-smsgw_live=mk_live_one; Path=/; Max-Age=60; SameSite=Strict; HttpOnly; Secure");
  EXPECT_EQ(opening[1],
            "__Host-smsgw_test=mk_test_two; Path=/; Max-Age=60; SameSite=Strict; HttpOnly; Secure");
  EXPECT_TRUE(opening[2].starts_with("__Host-smsgw_csrf=")) << opening[2];
  for (const auto& cookie : closingCookies(true)) {
    EXPECT_TRUE(cookie.starts_with("__Host-")) << cookie;
    EXPECT_NE(cookie.find("; Path=/; "), std::string::npos) << cookie;
    EXPECT_EQ(cookie.find("Domain"), std::string::npos) << cookie;
  }
  EXPECT_EQ(browserCookie("tok", std::chrono::seconds(5), true),
            "__Host-smsgw_browser=tok; Path=/; Max-Age=5; SameSite=Strict; HttpOnly; Secure");
  EXPECT_EQ(browserCookie("tok", std::chrono::seconds(5), false),
            "smsgw_browser=tok; Path=/; Max-Age=5; SameSite=Strict; HttpOnly");

  api::ApiRequest req;
  req.method = "GET";
  req.path = "/v1/messages";
  req.headers["cookie"] = "smsgw_live=mk_live_planted; __Host-smsgw_live=mk_live_own";
  EXPECT_EQ(api::presentedKey(req, true)->secret, "mk_live_own");
  EXPECT_EQ(api::presentedKey(req, false)->secret, "mk_live_planted");
  req.headers["cookie"] = "smsgw_live=mk_live_planted; smsgw_browser=b";
  EXPECT_EQ(api::presentedKey(req, true), std::nullopt) << "a plain name does not count over HTTPS";
  EXPECT_EQ(api::browserTokenIn(req, true), std::nullopt);
  EXPECT_EQ(api::browserTokenIn(req, false), "b");
}
