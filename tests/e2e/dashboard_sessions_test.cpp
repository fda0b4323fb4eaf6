// The dashboard's sign-in: session keys in cookies, never listed or rotatable, a CSRF token for
// every change, the sudo step-up for keys, and sign-out ending both keys on the server.
#include <gtest/gtest.h>

#include <regex>

#include "tests/support/accounts.h"
#include "tests/support/dashboard_signin.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

using Session = DashboardSession;

Session signIn(HttpTestClient& api, const std::string& email, const std::string& password) {
  return signInToDashboard(api, email, password);
}

std::vector<std::string> listedKeyIds(HttpTestClient& api, const std::string& key) {
  std::vector<std::string> ids;
  Reply listed = api.call("GET", "/v1/api-keys", bearer(key));
  for (const auto& k : listed.body["data"]) ids.push_back(k["id"]);
  return ids;
}

}  // namespace

TEST(DashboardSessions, SignInSetsHttpOnlyStrictCookiesAndShowsNoSecret) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Session session = signIn(api, account.email, account.password);
  ASSERT_EQ(session.reply.status, 201) << session.reply.raw_body;
  EXPECT_EQ(session.reply.header("cache-control"), "no-store");
  std::string cookies = session.reply.header("set-cookie");
  EXPECT_TRUE(std::regex_search(cookies, std::regex("smsgw_live=mk_live_[^;]+; Path=/v1; "
                                                    "Max-Age=\\d+; SameSite=Strict; HttpOnly")))
      << cookies;
  EXPECT_TRUE(std::regex_search(cookies, std::regex("smsgw_test=mk_test_[^;]+; Path=/v1; "
                                                    "Max-Age=\\d+; SameSite=Strict; HttpOnly")));
  // The page reads the CSRF token, so that cookie alone is not HttpOnly.
  EXPECT_TRUE(std::regex_search(cookies, std::regex("smsgw_csrf=[0-9a-f]{64}; Path=/; "
                                                    "Max-Age=\\d+; SameSite=Strict(\n|$)")));
  const auto& body = session.reply.body;
  EXPECT_EQ(body["account"]["id"], account.id);
  EXPECT_EQ(body["csrf_token"], session.csrf);
  ASSERT_EQ(body["api_keys"].size(), 2U);
  for (const auto& key : body["api_keys"]) {
    for (const char* absent : {"key", "defaultDeny", "email_domain_ids", "oauth_grant"})
      EXPECT_FALSE(key.contains(absent)) << absent;
    EXPECT_EQ(key["expiresAt"], body["expires_at"]);
  }
  EXPECT_EQ(session.reply.raw_body.find(session.live), std::string::npos);
}

TEST(DashboardSessions, SessionKeysAreNeitherListedNorRotatable) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Session session = signIn(api, account.email, account.password);
  auto listed = listedKeyIds(api, account.test_key);
  EXPECT_EQ(listed.size(), 2U);
  auto document = api.call("GET", "/v1/accounts/" + account.id, bearer(account.test_key)).body;
  EXPECT_EQ(document["api_keys"].size(), 2U);
  for (const auto& key : session.reply.body["api_keys"]) {
    std::string id = key["id"];
    EXPECT_EQ(std::count(listed.begin(), listed.end(), id), 0);
    Reply rotated =
        api.call("POST", "/v1/api-keys/" + id + "/rotate", bearer(account.test_key), nullptr);
    if (key["mode"] == "TEST") {
      EXPECT_EQ(rotated.status, 409);
      EXPECT_EQ(rotated.body["details"]["reason"], "session_key");
    }
  }
}

TEST(DashboardSessions, WrongPasswordAndUnknownEmailAnswerAlike) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Reply wrong = signIn(api, account.email, "not the passphrase").reply;
  Reply unknown = signIn(api, "nobody+" + uniqueSuffix() + "@example.ca", "whatever it is").reply;
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(wrong.body, unknown.body);
  EXPECT_EQ(wrong.body["details"]["reason"], "invalid_credentials");
  EXPECT_EQ(wrong.header("set-cookie"), "");
  EXPECT_EQ(api.call("POST", "/v1/sessions", {}, {{"email", account.email}}).status, 422);
}

TEST(DashboardSessions, WrongPasswordsInARowLockTheAccountsSignIn) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(signIn(api, account.email, "wrong guess").reply.status, 401);
  Reply locked = signIn(api, account.email, "wrong guess").reply;
  ASSERT_EQ(locked.status, 429) << locked.raw_body;
  // Locked means the password is not even checked: the right one waits too.
  Reply right = signIn(api, account.email, account.password).reply;
  EXPECT_EQ(right.status, 429);
  EXPECT_EQ(right.body["details"]["reason"], "password_locked");
  EXPECT_FALSE(right.header("retry-after").empty());
  EXPECT_EQ(right.header("set-cookie"), "");
}

TEST(DashboardSessions, CookiesAuthenticateEachModeAndChangesNeedTheCsrfToken) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Session session = signIn(api, account.email, account.password);
  Reply live = api.call("GET", "/v1/accounts/me", session.cookies("LIVE", false));
  ASSERT_EQ(live.status, 200) << live.raw_body;
  EXPECT_EQ(live.body["caller"]["mode"], "LIVE");
  EXPECT_EQ(
      api.call("GET", "/v1/accounts/me", session.cookies("TEST", false)).body["caller"]["mode"],
      "TEST");
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", session.cookies("BOTH", false)).status, 400);

  nlohmann::json contact = {{"phone_number", "+14165550142"}, {"name", "Zoé"}};
  Reply unguarded = api.call("POST", "/v1/contacts", session.cookies("TEST", false), contact);
  EXPECT_EQ(unguarded.status, 403);
  EXPECT_EQ(unguarded.body["details"]["reason"], "csrf_token");
  Headers forged = session.cookies("TEST", false);
  forged.emplace_back("X-CSRF-Token", std::string(64, 'a'));
  EXPECT_EQ(api.call("POST", "/v1/contacts", forged, contact).body["details"]["reason"],
            "csrf_token");
  // Nothing was made by the refused requests.
  EXPECT_EQ(api.call("GET", "/v1/contacts", bearer(account.test_key)).body["total"], 0);
  EXPECT_EQ(api.call("POST", "/v1/contacts", session.cookies("TEST"), contact).status, 201);

  // A key in a header is what authenticates, whatever cookies come with it.
  Headers both = bearer(account.test_key, session.cookies("LIVE", false));
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", both).body["caller"]["mode"], "TEST");
  // The cookies are the REST API's only: OAuth and MCP never take them.
  EXPECT_EQ(api.call("POST", "/mcp", session.cookies("TEST"),
                     {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}})
                .status,
            401);
}

TEST(DashboardSessions, ASessionMakesKeysOnlyWithThePasswordAgain) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Session session = signIn(api, account.email, account.password);
  nlohmann::json wanted = {{"mode", "TEST"}, {"label", "from the dashboard"}};
  Reply refused = api.call("POST", "/v1/api-keys", session.cookies("TEST"), wanted);
  EXPECT_EQ(refused.body["code"], "PERMISSION_ESCALATION");
  wanted["password"] = account.password;
  Reply made = api.call("POST", "/v1/api-keys", session.cookies("TEST"), wanted);
  ASSERT_EQ(made.status, 201) << made.raw_body;
  std::string id = made.body["id"];
  EXPECT_EQ(api.call("POST", "/v1/api-keys/" + id + "/rotate", session.cookies("TEST"), nullptr)
                .body["code"],
            "PERMISSION_ESCALATION");
  Reply rotated = api.call("POST", "/v1/api-keys/" + id + "/rotate", session.cookies("TEST"),
                           {{"password", account.password}});
  EXPECT_EQ(rotated.status, 200) << rotated.raw_body;
}

TEST(DashboardSessions, ConsentsImportedThroughASessionComeFromTheDashboard) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Session session = signIn(api, account.email, account.password);
  std::string csv = "phone_number\n+14165550171\n+14165550172\n";
  std::string path =
      "/v1/compliance/"
      "consent-batches?attested=true&consent_type=express&file_name=x.csv&source_description=Web+"
      "form";
  Headers headers = session.cookies("TEST");
  headers.emplace_back("Content-Type", "text/csv");
  Reply imported = api.call("POST", path, headers, nullptr, &csv);
  ASSERT_EQ(imported.status, 201) << imported.raw_body;
  EXPECT_EQ(imported.body["source"], "dashboard");
  EXPECT_EQ(imported.body["counts"]["recorded"], 2);
  Reply scripted = api.call("POST", path, bearer(account.test_key, {{"Content-Type", "text/csv"}}),
                            nullptr, &csv);
  ASSERT_EQ(scripted.status, 201) << scripted.raw_body;
  EXPECT_EQ(scripted.body["source"], "api");
}

TEST(DashboardSessions, SignOutEndsBothKeysOnTheServer) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Session session = signIn(api, account.email, account.password);
  Session other = signIn(api, account.email, account.password);
  EXPECT_EQ(api.call("DELETE", "/v1/sessions/current", session.cookies("TEST", false)).status, 403);
  EXPECT_EQ(api.call("DELETE", "/v1/sessions/current", bearer(account.test_key))
                .body["details"]["reason"],
            "not_a_session");
  Reply out = api.call("DELETE", "/v1/sessions/current", session.cookies("TEST"));
  ASSERT_EQ(out.status, 204) << out.raw_body;
  EXPECT_TRUE(
      std::regex_search(out.header("set-cookie"), std::regex("smsgw_live=; Path=/v1; Max-Age=0")));
  for (const char* mode : {"LIVE", "TEST"}) {
    Reply after = api.call("GET", "/v1/accounts/me", session.cookies(mode));
    EXPECT_EQ(after.status, 401) << mode;
    EXPECT_EQ(after.body["code"], "API_KEY_REVOKED") << mode;
  }
  // Another sign-in of the same owner is its own session.
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", other.cookies("TEST")).status, 200);
}

TEST(DashboardFiles, ThePageRunsOnlyItsOwnScriptsAndIsNeverFramed) {
  HttpTestClient api(apiUrl());
  Reply page = api.call("GET", "/dashboard");
  ASSERT_EQ(page.status, 200) << "ops/test builds the dashboard before the stack starts";
  EXPECT_EQ(page.header("content-type"), "text/html; charset=utf-8");
  EXPECT_EQ(api.call("GET", "/dashboard/").raw_body, page.raw_body);
  std::string policy = page.header("content-security-policy");
  for (const char* directive : {"default-src 'none'", "script-src 'self'", "style-src 'self'",
                                "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"})
    EXPECT_NE(policy.find(directive), std::string::npos) << directive;
  EXPECT_EQ(policy.find("unsafe-inline"), std::string::npos);
  EXPECT_EQ(page.header("x-frame-options"), "DENY");
  EXPECT_EQ(page.header("x-content-type-options"), "nosniff");
  EXPECT_EQ(page.header("cache-control"), "no-cache");
  // Every script the page loads is a file of its own (the CSP would refuse an inline one).
  std::smatch m;
  ASSERT_TRUE(std::regex_search(page.raw_body, m,
                                std::regex(R"(<script type="module" crossorigin src="([^"]+)\")")));
  EXPECT_FALSE(std::regex_search(page.raw_body, std::regex(R"(<script(?![^>]*\ssrc=)[^>]*>)")));
  Reply script = api.call("GET", m[1].str());
  EXPECT_EQ(script.status, 200);
  EXPECT_EQ(script.header("content-type"), "text/javascript; charset=utf-8");
  EXPECT_EQ(script.header("cache-control"), "public, max-age=31536000, immutable");
  EXPECT_EQ(api.call("GET", "/dashboard/assets/nothing.js").status, 404);
}
