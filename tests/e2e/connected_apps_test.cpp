// Connected apps: the owner sees the OAuth grants in force in each mode and ends one, with
// everything it holds.
#include <gtest/gtest.h>

#include "tests/support/accounts.h"
#include "tests/support/oauth_flow.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

TEST(ConnectedApps, TheOwnerSeesEachGrantInItsModeAndEndsIt) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUpAndFund(api);
  OAuthClient client(api, "http://127.0.0.1:9/callback", "Bookkeeping app");
  nlohmann::json tokens = client.connect(owner, "TEST");
  std::string app_token = tokens["access_token"];

  Reply listed = api.call("GET", "/v1/connected-apps", bearer(owner.test_key));
  ASSERT_EQ(listed.status, 200) << listed.raw_body;
  ASSERT_EQ(listed.body["data"].size(), 1U);
  const auto& app = listed.body["data"][0];
  EXPECT_EQ(app["client_id"], client.id());
  EXPECT_EQ(app["client_name"], "Bookkeeping app");
  EXPECT_EQ(app["mode"], "TEST");
  EXPECT_TRUE(app["id"].get<std::string>().starts_with("ogr_"));
  EXPECT_EQ(api.call("GET", "/v1/connected-apps", bearer(owner.live_key)).body["data"].size(), 0U)
      << "a LIVE key sees LIVE grants";
  // The app's own token may not list or end connections (it could end its rivals'), whatever
  // permissions it was approved with.
  EXPECT_EQ(api.call("GET", "/v1/connected-apps", bearer(app_token)).status, 403);

  std::string path = "/v1/connected-apps/" + app["id"].get<std::string>();
  TestAccount stranger = signUp(api);
  EXPECT_EQ(api.call("DELETE", path, bearer(stranger.test_key)).status, 404)
      << "another account's grant is not told apart from none (issue 49)";
  EXPECT_EQ(api.call("GET", "/v1/messages", bearer(app_token)).status, 200);
  EXPECT_EQ(api.call("DELETE", path, bearer(owner.test_key)).status, 204);
  EXPECT_EQ(api.call("GET", "/v1/messages", bearer(app_token)).body["code"], "API_KEY_REVOKED");
  Reply refreshed = client.refresh(tokens["refresh_token"]);
  EXPECT_EQ(refreshed.status, 400) << "its refresh token ended too";
  EXPECT_EQ(api.call("GET", "/v1/connected-apps", bearer(owner.test_key)).body["data"].size(), 0U);
  EXPECT_EQ(api.call("DELETE", path, bearer(owner.test_key)).status, 404);
  EXPECT_EQ(api.call("DELETE", "/v1/connected-apps/ogr_none", bearer(owner.test_key)).status, 404);
}
