// Account security as an owner meets it over HTTP (issue 49, items 2 to 4): a lock of a
// stranger's making never keeps the owner out, the password changes with the old one and is
// reset by a single-use emailed link, the sign-in email moves only with the password and the new
// address's proof, sessions are listed and ended, and standing access made from a session needs
// the password again. Emails are read from the stack's inbox (MAIL_DROP_DIR).
#include <gtest/gtest.h>

#include <tuple>

#include "tests/support/accounts.h"
#include "tests/support/dashboard_signin.h"
#include "tests/support/mail_drop.h"
#include "tests/support/oauth_flow.h"
#include "tests/support/test_env.h"
#include "tests/support/webhook_receiver.h"

using namespace smsgw::testing;

namespace {

std::string accountPath(const TestAccount& account, const std::string& rest = "") {
  return "/v1/accounts/" + account.id + rest;
}

bool subjectMailed(const std::string& to, const std::string& words) {
  for (const auto& email : emailsTo(to))
    if (email.subject.find(words) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(AccountSecurity, AStrangersWrongPasswordsNeverKeepTheOwnerOut) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  DashboardSession first = signInToDashboard(api, owner.email, owner.password);
  ASSERT_EQ(first.reply.status, 201) << first.reply.raw_body;
  ASSERT_FALSE(first.browser.empty()) << "a sign-in proves its browser";
  EXPECT_NE(first.reply.header("set-cookie")
                .find("smsgw_browser=" + first.browser +
                      "; Path=/; Max-Age=15552000; SameSite=Strict; "
                      "HttpOnly"),
            std::string::npos)
      << first.reply.header("set-cookie");

  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(signInToDashboard(api, owner.email, "a stranger's guess").reply.status, 401);
  Reply locked = signInToDashboard(api, owner.email, owner.password).reply;
  ASSERT_EQ(locked.status, 429) << locked.raw_body;
  EXPECT_EQ(locked.body["details"]["scope"], "email");
  EXPECT_EQ(locked.body["details"]["failures"], 5);
  EXPECT_EQ(locked.body["details"]["unlock"], "email_link");

  DashboardSession owners = signInToDashboard(api, owner.email, owner.password, first.browser);
  EXPECT_EQ(owners.reply.status, 201)
      << "the proven browser gets through: " << owners.reply.raw_body;

  // On a browser never proven, an emailed link proves it.
  Reply asked = api.call("POST", "/v1/sessions/unlock", {}, {{"email", owner.email}});
  Reply unknown = api.call("POST", "/v1/sessions/unlock", {},
                           {{"email", "nobody-" + uniqueSuffix() + "@example.ca"}});
  EXPECT_EQ(asked.status, 202) << asked.raw_body;
  EXPECT_EQ(asked.raw_body, unknown.raw_body) << "alike whether the email is known or not";
  std::string token = linkTokenMailedTo(owner.email, "unlock");
  ASSERT_FALSE(token.empty());
  Reply proven = api.call("POST", "/v1/sessions/unlock/confirm", {}, {{"token", token}});
  ASSERT_EQ(proven.status, 200) << proven.raw_body;
  std::string browser = cookieIn(proven.header("set-cookie"), "smsgw_browser");
  ASSERT_FALSE(browser.empty());
  EXPECT_EQ(signInToDashboard(api, owner.email, owner.password, browser).reply.status, 201);
  Reply again = api.call("POST", "/v1/sessions/unlock/confirm", {}, {{"token", token}});
  EXPECT_EQ(again.status, 410);
  EXPECT_EQ(again.body["code"], "LINK_EXPIRED");
  EXPECT_EQ(signInToDashboard(api, owner.email, owner.password).reply.status, 429)
      << "the stranger's lock stands for strangers";
}

TEST(AccountSecurity, ThePasswordChangesOnlyWithTheOldOneAndEveryOtherSessionEnds) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  DashboardSession here = signInToDashboard(api, owner.email, owner.password);
  DashboardSession elsewhere = signInToDashboard(api, owner.email, owner.password);
  std::string path = accountPath(owner, "/password");
  Reply wrong = api.call("POST", path, here.cookies(),
                         {{"current_password", "not it at all"}, {"new_password", "x"}});
  EXPECT_EQ(wrong.status, 422);
  EXPECT_EQ(wrong.body["details"][0]["field"], "new_password") << "too short, checked first";
  wrong = api.call("POST", path, here.cookies(),
                   {{"current_password", "not it at all"}, {"new_password", "a new passphrase"}});
  EXPECT_EQ(wrong.status, 422);
  EXPECT_EQ(wrong.body["details"][0]["field"], "current_password");
  EXPECT_EQ(api.call("POST", path, bearer(owner.test_key),
                     {{"current_password", owner.password}, {"new_password", "a new passphrase"}})
                .body["code"],
            "LIVE_KEY_REQUIRED");

  Reply changed =
      api.call("POST", path, here.cookies(),
               {{"current_password", owner.password}, {"new_password", "a new passphrase"}});
  ASSERT_EQ(changed.status, 204) << changed.raw_body;
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", here.cookies()).status, 200)
      << "the session that changed it stays";
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", elsewhere.cookies()).body["code"],
            "API_KEY_REVOKED");
  EXPECT_EQ(signInToDashboard(api, owner.email, owner.password).reply.status, 401);
  EXPECT_EQ(signInToDashboard(api, owner.email, "a new passphrase").reply.status, 201);
  EXPECT_TRUE(subjectMailed(owner.email, "Your password changed"));
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", bearer(owner.live_key)).status, 200)
      << "API keys are not sign-in: they stay";
}

TEST(AccountSecurity, AForgottenPasswordIsResetByASingleUseEmailedLink) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  DashboardSession before = signInToDashboard(api, owner.email, owner.password);
  Reply asked = api.call("POST", "/v1/password-resets", {}, {{"email", owner.email}});
  Reply unknown = api.call("POST", "/v1/password-resets", {},
                           {{"email", "nobody-" + uniqueSuffix() + "@example.ca"}});
  ASSERT_EQ(asked.status, 202) << asked.raw_body;
  EXPECT_EQ(asked.raw_body, unknown.raw_body);
  std::string token = linkTokenMailedTo(owner.email, "reset");
  ASSERT_FALSE(token.empty());

  Reply short_one = api.call("POST", "/v1/password-resets/confirm", {},
                             {{"token", token}, {"new_password", "short"}});
  EXPECT_EQ(short_one.status, 422) << "refused before the link is spent";
  Reply reset = api.call("POST", "/v1/password-resets/confirm", {},
                         {{"token", token}, {"new_password", "a reset passphrase"}});
  ASSERT_EQ(reset.status, 200) << reset.raw_body;
  EXPECT_FALSE(cookieIn(reset.header("set-cookie"), "smsgw_browser").empty());
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", before.cookies()).body["code"], "API_KEY_REVOKED");
  EXPECT_EQ(signInToDashboard(api, owner.email, "a reset passphrase").reply.status, 201);
  Reply spent = api.call("POST", "/v1/password-resets/confirm", {},
                         {{"token", token}, {"new_password", "yet another one"}});
  EXPECT_EQ(spent.body["code"], "LINK_EXPIRED");
  EXPECT_EQ(api.call("POST", "/v1/password-resets/confirm", {},
                     {{"token", "made-up"}, {"new_password", "yet another one"}})
                .status,
            410);
}

TEST(AccountSecurity, TheSignInEmailMovesOnlyWithThePasswordAndTheNewAddresssProof) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api), other = signUp(api);
  std::string moved = "moved-" + uniqueSuffix() + "@example.ca";
  Reply patched = api.call("PATCH", accountPath(owner), bearer(owner.live_key), {{"email", moved}});
  EXPECT_EQ(patched.status, 422) << "PATCH no longer moves the sign-in";
  EXPECT_EQ(patched.body["details"][0]["field"], "email");

  std::string path = accountPath(owner, "/email-change");
  EXPECT_EQ(api.call("POST", path, bearer(owner.live_key), {{"email", moved}}).status, 422);
  Reply wrong =
      api.call("POST", path, bearer(owner.live_key), {{"email", moved}, {"password", "wrong!"}});
  EXPECT_EQ(wrong.body["details"][0]["field"], "password");
  Reply taken = api.call("POST", path, bearer(owner.live_key),
                         {{"email", other.email}, {"password", owner.password}});
  EXPECT_EQ(taken.status, 409);

  Reply asked = api.call("POST", path, bearer(owner.live_key),
                         {{"email", moved}, {"password", owner.password}});
  ASSERT_EQ(asked.status, 202) << asked.raw_body;
  EXPECT_EQ(asked.body["pending_email"], moved);
  EXPECT_TRUE(subjectMailed(owner.email, "A change of sign-in email was asked"));
  EXPECT_EQ(api.call("GET", accountPath(owner), bearer(owner.live_key)).body["account"]["email"],
            owner.email)
      << "nothing moves before the proof";
  Reply twice = api.call("POST", path, bearer(owner.live_key),
                         {{"email", moved}, {"password", owner.password}});
  EXPECT_EQ(twice.status, 429);
  EXPECT_FALSE(twice.header("retry-after").empty());

  std::string token = linkTokenMailedTo(moved, "email");
  ASSERT_FALSE(token.empty());
  Reply confirmed = api.call("POST", "/v1/email-changes/confirm", {}, {{"token", token}});
  ASSERT_EQ(confirmed.status, 200) << confirmed.raw_body;
  EXPECT_EQ(confirmed.body["account"]["email"], moved);
  EXPECT_FALSE(confirmed.body["account"]["email_verified_at"].is_null());
  EXPECT_TRUE(subjectMailed(owner.email, "Your sign-in email changed"));
  EXPECT_EQ(signInToDashboard(api, owner.email, owner.password).reply.status, 401);
  EXPECT_EQ(signInToDashboard(api, moved, owner.password).reply.status, 201);
  EXPECT_EQ(api.call("POST", "/v1/email-changes/confirm", {}, {{"token", token}}).status, 410);
}

TEST(AccountSecurity, TheOwnerListsSessionsWithWhenAndWhereAndEndsOneOrAll) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api), stranger = signUp(api);
  DashboardSession here =
      signInToDashboard(api, owner.email, owner.password, "", "Mozilla/5.0 Firefox/145.0");
  DashboardSession elsewhere =
      signInToDashboard(api, owner.email, owner.password, "", "Mozilla/5.0 Chrome/156.0");
  DashboardSession theirs = signInToDashboard(api, stranger.email, stranger.password);

  Reply listed = api.call("GET", "/v1/sessions", here.cookies());
  ASSERT_EQ(listed.status, 200) << listed.raw_body;
  ASSERT_EQ(listed.body["data"].size(), 2U);
  std::string here_id = here.reply.body["session_id"],
              there_id = elsewhere.reply.body["session_id"];
  for (const auto& session : listed.body["data"]) {
    EXPECT_EQ(session["current"], session["id"] == here_id);
    EXPECT_EQ(session["client_ip"], "127.0.0.1");
    EXPECT_EQ(session["user_agent"],
              session["current"] ? "Mozilla/5.0 Firefox/145.0" : "Mozilla/5.0 Chrome/156.0");
    EXPECT_TRUE(session["created_at"].is_string());
    EXPECT_TRUE(session["expires_at"].is_string());
  }
  EXPECT_EQ(listed.body["data"][0]["id"], there_id) << "newest first";
  EXPECT_EQ(api.call("GET", "/v1/sessions", bearer(owner.test_key)).body["data"].size(), 2U)
      << "a key of the account may read them";

  EXPECT_EQ(api.call("DELETE", "/v1/sessions/" + there_id, here.cookies()).status, 204);
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", elsewhere.cookies()).body["code"],
            "API_KEY_REVOKED");
  EXPECT_EQ(api.call("DELETE", "/v1/sessions/" + there_id, here.cookies()).status, 404);
  EXPECT_EQ(api.call("DELETE", "/v1/sessions/" + theirs.reply.body["session_id"].get<std::string>(),
                     here.cookies())
                .status,
            404)
      << "another account's session is not told apart from none";
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", theirs.cookies()).status, 200);

  Reply everywhere = api.call("DELETE", "/v1/sessions", here.cookies());
  ASSERT_EQ(everywhere.status, 204) << everywhere.raw_body;
  EXPECT_NE(everywhere.header("set-cookie").find("smsgw_live=; "), std::string::npos);
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", here.cookies()).body["code"], "API_KEY_REVOKED");
  EXPECT_EQ(api.call("GET", "/v1/sessions", bearer(owner.test_key)).body["data"].size(), 0U);
}

TEST(AccountSecurity, AConnectedAppCannotChangeHowTheOwnerSignsIn) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUpAndFund(api);
  OAuthClient client(api);
  client.request["scope"] = "account:rm webhooks:rw";
  std::string token = client.connect(owner, "LIVE")["access_token"];
  for (const auto& [method, path, body] :
       std::vector<std::tuple<std::string, std::string, nlohmann::json>>{
           {"POST",
            accountPath(owner, "/password"),
            {{"current_password", owner.password}, {"new_password", "an app's passphrase"}}},
           {"POST",
            accountPath(owner, "/email-change"),
            {{"email", "app-" + uniqueSuffix() + "@example.ca"}, {"password", owner.password}}},
           {"GET", "/v1/sessions", nullptr},
           {"DELETE", "/v1/sessions", nullptr}}) {
    Reply refused = api.call(method, path, bearer(token), body);
    EXPECT_EQ(refused.status, 403) << method << " " << path << ": " << refused.raw_body;
    EXPECT_EQ(refused.body["details"]["reason"], "oauth_token_cannot_manage_sign_in") << path;
  }
  EXPECT_EQ(signInToDashboard(api, owner.email, owner.password).reply.status, 201);
}

TEST(AccountSecurity, ASessionMakesOrRepointsAWebhookOnlyWithThePassword) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  WebhookReceiver receiver, other;
  DashboardSession session = signInToDashboard(api, owner.email, owner.password);
  nlohmann::json body = {{"url", receiver.url()}, {"events", {"message.received"}}};
  Reply bare = api.call("POST", "/v1/webhooks", session.cookies("TEST"), body);
  EXPECT_EQ(bare.status, 403) << bare.raw_body;
  EXPECT_EQ(bare.body["code"], "STEP_UP_REQUIRED");
  body["password"] = "not the password";
  EXPECT_EQ(api.call("POST", "/v1/webhooks", session.cookies("TEST"), body).body["code"],
            "STEP_UP_REQUIRED");
  body["password"] = owner.password;
  Reply made = api.call("POST", "/v1/webhooks", session.cookies("TEST"), body);
  ASSERT_EQ(made.status, 201) << made.raw_body;
  std::string path = "/v1/webhooks/" + made.body["id"].get<std::string>();

  Reply repointed = api.call("PATCH", path, session.cookies("TEST"), {{"url", other.url()}});
  EXPECT_EQ(repointed.body["code"], "STEP_UP_REQUIRED");
  EXPECT_EQ(api.call("PATCH", path, session.cookies("TEST"),
                     {{"events", {"message.received", "message.sent"}}})
                .status,
            200)
      << "changing what it hears is no new access";
  EXPECT_EQ(api.call("PATCH", path, session.cookies("TEST"),
                     {{"url", other.url()}, {"password", owner.password}})
                .status,
            200);
  EXPECT_EQ(api.call("POST", "/v1/webhooks", bearer(owner.test_key),
                     {{"url", receiver.url()}, {"events", {"message.sent"}}})
                .status,
            201)
      << "a key holder needs no step-up";
}
