// OAuth's pure parts: scopes as permissions, the metadata document's address checks and cache
// lifetime, the redirect back to a client, OAuth's error shape and the consent page's escaping.
#include <gtest/gtest.h>

#include "adapters/client_metadata.h"
#include "adapters/oauth_redirect.h"
#include "api/http/error_body.h"
#include "api/routes/consent_page.h"
#include "domain/oauth_scope.h"

using namespace smsgw;
using namespace smsgw::oauth;

TEST(OAuthScope, WordsAreResourceAndLetters) {
  auto permissions = permissionsOfScope("messages:rw  compliance:r");
  ASSERT_TRUE(permissions);
  EXPECT_EQ(permissions->toJson(), nlohmann::json({{"messages", "rw"}, {"compliance", "r"}}));
  EXPECT_EQ(scopeOf(*permissions), "compliance:r messages:rw");
  EXPECT_EQ(permissionsOfScope(scopeOf(*permissions)), permissions);
}

TEST(OAuthScope, UnknownResourcesLettersAndRepeatsAreRefused) {
  EXPECT_FALSE(permissionsOfScope("rockets:r"));
  EXPECT_FALSE(permissionsOfScope("messages:rx"));
  EXPECT_FALSE(permissionsOfScope("messages"));
  EXPECT_FALSE(permissionsOfScope("messages:"));
  EXPECT_FALSE(permissionsOfScope("messages:r messages:w"));
  EXPECT_TRUE(permissionsOfScope(kDefaultScope));
}

TEST(ClientMetadata, FreshnessFollowsCacheControlWithinADay) {
  EXPECT_EQ(freshnessOf("max-age=600"), std::chrono::seconds(600));
  EXPECT_EQ(freshnessOf("public, MAX-AGE=\"60\""), std::chrono::seconds(60));
  EXPECT_EQ(freshnessOf("max-age=99999999"), std::chrono::seconds(86400));
  EXPECT_EQ(freshnessOf("no-store"), std::chrono::seconds(0));
  EXPECT_EQ(freshnessOf("max-age=600, no-cache"), std::chrono::seconds(0));
  EXPECT_EQ(freshnessOf(""), std::chrono::seconds(300));
  EXPECT_EQ(freshnessOf("s-maxage=5"), std::chrono::seconds(300));
}

// Outside a local stack a document URL never reaches an internal address; nothing is fetched.
TEST(ClientMetadata, InternalAddressesAreRefusedOutsideALocalStack) {
  for (const char* url :
       {"https://127.0.0.1/client.json", "https://localhost/client.json", "https://[::1]/c.json",
        "https://10.1.2.3/c.json", "https://192.168.0.10/c.json", "https://169.254.169.254/c",
        "https://[::ffff:127.0.0.1]/c.json", "https://100.64.0.1/c.json"}) {
    FetchedClientMetadata fetched = fetchClientMetadata(url, false);
    EXPECT_EQ(fetched.outcome, FetchedClientMetadata::Outcome::Refused) << url;
    EXPECT_EQ(fetched.reason, "private_address") << url;
  }
  EXPECT_EQ(fetchClientMetadata("http://example.com/c.json", false).reason, "not_https");
  EXPECT_EQ(fetchClientMetadata("https://user:pw@example.com/c.json", false).reason, "invalid_url");
  EXPECT_EQ(fetchClientMetadata("ftp://example.com/c.json", false).reason, "invalid_url");
}

TEST(OAuthRedirect, ParametersAreAddedEncodedToTheQuery) {
  EXPECT_EQ(redirectWith("https://app.example/cb", {{"code", "a b"}, {"state", "x&y=z"}}),
            "https://app.example/cb?code=a+b&state=x%26y%3dz");
  EXPECT_EQ(redirectWith("http://127.0.0.1:5000/cb?keep=1", {{"error", "access_denied"}}),
            "http://127.0.0.1:5000/cb?keep=1&error=access_denied");
}

TEST(OAuthErrors, OAuthCodesAnswerInOAuthsShape) {
  nlohmann::json body = api::oauthErrorBody(ErrorCode::OAUTH_INVALID_GRANT, {{"reason", "x"}});
  EXPECT_EQ(body["error"], "invalid_grant");
  EXPECT_FALSE(body["error_description"].get<std::string>().empty());
  EXPECT_NE(body["error_description"], body["error_description_fr"]);
  EXPECT_EQ(body["details"]["reason"], "x");
  EXPECT_EQ(api::oauthErrorName(ErrorCode::OAUTH_INVALID_CLIENT_METADATA),
            "invalid_client_metadata");
  EXPECT_EQ(api::oauthErrorName(ErrorCode::VALIDATION_ERROR), "invalid_request");
  EXPECT_EQ(api::oauthErrorName(ErrorCode::FST_ERR_CTP_BODY_TOO_LARGE), "invalid_request");
  EXPECT_EQ(api::oauthErrorName(ErrorCode::RATE_LIMITED), "temporarily_unavailable");
  EXPECT_EQ(api::oauthErrorName(ErrorCode::INTERNAL_ERROR), "server_error");
}

// RFC 6749 5.2: error_description is ASCII without '"' or '\'.
TEST(OAuthErrors, EnglishDescriptionsAreTheAsciiTheRfcAllows) {
  for (const auto& info : allErrors()) {
    if (!info.name.starts_with("OAUTH_")) continue;
    for (char c : info.message_en) {
      EXPECT_TRUE(c >= 0x20 && c <= 0x7e && c != '"' && c != '\\') << info.name;
    }
  }
}

TEST(ConsentPage, WhatAClientChoseIsEscaped) {
  api::ConsentPage page;
  page.client_name = "<script>alert(1)</script>";
  page.redirect_uri = "https://app.example/cb?a=\"><img src=x>";
  page.request = {{"state", "\"><script>"}};
  page.csrf_token = "token";
  page.requested = *permissionsOfScope("messages:rw");
  std::string html = api::renderConsentPage(page, Language::English);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("name=\"perm_messages\" value=\"rw\" checked"), std::string::npos);
  EXPECT_NE(html.find("name=\"csrf_token\" value=\"token\""), std::string::npos);
  EXPECT_NE(html.find("Approve"), std::string::npos);
  std::string french = api::renderConsentPage(page, Language::French);
  EXPECT_NE(french.find("lang=\"fr\""), std::string::npos);
  EXPECT_NE(french.find("Approuver"), std::string::npos);
}

// Issue 34, items 4 and 6: a self-registered client is shown as unverified, a metadata
// document's by its address; a locked account's page says so in the reader's language.
TEST(ConsentPage, SaysWhetherTheClientIsVerifiedAndWhenTheAccountIsLocked) {
  api::ConsentPage page;
  page.client_name = "Agenda Bot";
  page.client_id = "dcr_x";
  page.self_registered = true;
  page.requested = *permissionsOfScope("messages:rw");
  std::string html = api::renderConsentPage(page, Language::English);
  EXPECT_NE(html.find("id=\"unverified\""), std::string::npos);
  page.self_registered = false;
  page.client_id = "https://app.example/client.json";
  html = api::renderConsentPage(page, Language::English);
  EXPECT_EQ(html.find("id=\"unverified\""), std::string::npos);
  EXPECT_NE(html.find("https://app.example/client.json"), std::string::npos);
  page.wrong_credentials = true;
  page.locked_for_minutes = 2;
  EXPECT_NE(api::renderConsentPage(page, Language::English).find("Try again in 2 min."),
            std::string::npos);
  EXPECT_NE(api::renderConsentPage(page, Language::French).find("Réessayez dans 2 min."),
            std::string::npos);
}
