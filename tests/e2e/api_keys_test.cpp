// API key management: permissions, escalation, rotation and revocation.
#include <gtest/gtest.h>

#include "tests/support/accounts.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

Reply createKey(HttpTestClient& api, const std::string& caller, const nlohmann::json& body) {
  return api.call("POST", "/v1/api-keys", bearer(caller), body);
}

}  // namespace

TEST(ApiKeys, NarrowKeysAreForbiddenOutsideTheirPermissions) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Reply created =
      createKey(api, account.test_key,
                {{"mode", "TEST"}, {"label", "reader"}, {"permissions", {{"messages", "r"}}}});
  ASSERT_EQ(created.status, 201) << created.raw_body;
  std::string reader = created.body["key"];
  EXPECT_EQ(created.body["permissions"], nlohmann::json({{"messages", "r"}}));
  EXPECT_EQ(api.call("GET", "/v1/messages", bearer(reader)).status, 200);
  Reply refused = api.call("POST", "/v1/messages", bearer(reader),
                           {{"from", "+14165550100"}, {"to", "+14162220123"}, {"body", "x"}});
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.body["code"], "FORBIDDEN");
  EXPECT_EQ(api.call("GET", "/v1/webhooks", bearer(reader)).body["code"], "FORBIDDEN");
}

TEST(ApiKeys, BroaderPermissionsNeedThePassword) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  std::string narrow =
      createKey(api, account.test_key,
                {{"mode", "TEST"}, {"permissions", {{"api_keys", "rw"}, {"messages", "r"}}}})
          .body["key"];
  nlohmann::json broader = {{"mode", "TEST"}, {"permissions", {{"messages", "rw"}}}};
  EXPECT_EQ(createKey(api, narrow, broader).body["code"], "PERMISSION_ESCALATION");
  broader["password"] = "wrong password!";
  EXPECT_EQ(createKey(api, narrow, broader).body["code"], "PERMISSION_ESCALATION");
  broader["password"] = account.password;
  EXPECT_EQ(createKey(api, narrow, broader).status, 201);
  EXPECT_EQ(createKey(api, narrow, {{"mode", "TEST"}, {"permissions", {{"messages", "r"}}}}).status,
            201);
}

TEST(ApiKeys, TestKeysCannotMakeLiveKeys) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUpAndFund(api);
  EXPECT_EQ(createKey(api, account.test_key, {{"mode", "LIVE"}}).body["code"], "LIVE_KEY_REQUIRED");
  Reply live = createKey(api, account.live_key, {{"mode", "LIVE"}});
  ASSERT_EQ(live.status, 201);
  EXPECT_TRUE(live.body["key"].get<std::string>().starts_with("mk_live_"));
  EXPECT_EQ(createKey(api, account.live_key, {{"mode", "SOMETIMES"}}).status, 422);
  EXPECT_EQ(
      createKey(api, account.live_key, {{"mode", "TEST"}, {"permissions", {{"rockets", "r"}}}})
          .status,
      422);
}

TEST(ApiKeys, RotationRevokesTheOldKeyAndKeepsItsSettings) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Reply created =
      createKey(api, account.test_key,
                {{"mode", "TEST"}, {"label", "ci"}, {"permissions", {{"messages", "r"}}}});
  std::string old_key = created.body["key"], id = created.body["id"];
  Reply rotated = api.call("POST", "/v1/api-keys/" + id + "/rotate", bearer(account.test_key));
  ASSERT_EQ(rotated.status, 200) << rotated.raw_body;
  EXPECT_NE(rotated.body["id"], id);
  EXPECT_EQ(rotated.body["label"], "ci");
  EXPECT_EQ(rotated.body["permissions"], nlohmann::json({{"messages", "r"}}));
  EXPECT_EQ(api.call("GET", "/v1/messages", bearer(old_key)).body["code"], "API_KEY_REVOKED");
  EXPECT_EQ(api.call("GET", "/v1/messages", bearer(rotated.body["key"])).status, 200);
  Reply again = api.call("POST", "/v1/api-keys/" + id + "/rotate", bearer(account.test_key));
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(again.body["code"], "CONFLICT");
  EXPECT_EQ(again.body["details"]["reason"], "revoked");
}

TEST(ApiKeys, RevokedKeysAreRefusedAndListedNoMore) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Reply created = createKey(api, account.test_key, {{"mode", "TEST"}});
  std::string id = created.body["id"];
  EXPECT_EQ(api.call("DELETE", "/v1/api-keys/" + id, bearer(account.test_key)).status, 204);
  Reply refused = api.call("GET", "/v1/messages", bearer(created.body["key"]));
  EXPECT_EQ(refused.status, 401);
  EXPECT_EQ(refused.body["code"], "API_KEY_REVOKED");
  EXPECT_EQ(api.call("DELETE", "/v1/api-keys/" + id, bearer(account.test_key)).status, 404);
  Reply listed = api.call("GET", "/v1/api-keys", bearer(account.test_key));
  for (const auto& key : listed.body["data"]) EXPECT_NE(key["id"], id);
}

TEST(ApiKeys, AnotherAccountsKeyIsForbidden) {
  HttpTestClient api(apiUrl());
  TestAccount mine = signUp(api);
  TestAccount theirs = signUp(api);
  std::string their_key_id = createKey(api, theirs.test_key, {{"mode", "TEST"}}).body["id"];
  EXPECT_EQ(api.call("DELETE", "/v1/api-keys/" + their_key_id, bearer(mine.test_key)).status, 403);
  EXPECT_EQ(
      api.call("POST", "/v1/api-keys/" + their_key_id + "/rotate", bearer(mine.test_key)).status,
      403);
  EXPECT_EQ(api.call("DELETE", "/v1/api-keys/key_doesnotexist", bearer(mine.test_key)).status, 404);
}
