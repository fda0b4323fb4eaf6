// Key fences (spec Authentication 5 and 7): keys with allow/deny lists or default-deny, what
// their sends may reach (lists expanded at the send), what a fenced key may not change
// (KEY_FENCED), what a TEST key may not change under a LIVE key's lists (LIVE_KEY_REQUIRED),
// and the list settings of keys.
#include <gtest/gtest.h>

#include "tests/support/numbers.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

// An account with a list holding a number, a contact and a group, each with their own number.
class KeyFences : public ::testing::Test {
 protected:
  void SetUp() override {
    account = signUpAndFund(api);
    list = idOf(post("/v1/contact-lists", {{"name", "Reachable"}}));
    contact = idOf(post("/v1/contacts", {{"phone_number", kContactNumber}, {"name", "Ada"}}));
    group = idOf(post("/v1/contact-groups", {{"name", "Crew"}}));
    EXPECT_EQ(
        post("/v1/contact-groups/" + group + "/members", {{"phone_number", kMemberNumber}}).status,
        201);
    for (const nlohmann::json& entry :
         {nlohmann::json{{"phone_number", kListedNumber}}, nlohmann::json{{"contact_id", contact}},
          nlohmann::json{{"contact_group_id", group}}}) {
      EXPECT_EQ(post("/v1/contact-lists/" + list + "/entries", entry).status, 201);
    }
  }

  Reply post(const std::string& path, const nlohmann::json& body, const std::string& key = "") {
    return api.call("POST", path, bearer(key.empty() ? account.live_key : key), body);
  }
  // A key of `mode` with every permission and the given fence settings; returns its secret.
  std::string fencedKey(const std::string& mode, nlohmann::json fence) {
    fence["mode"] = mode;
    Reply key = post("/v1/api-keys", fence);
    EXPECT_EQ(key.status, 201) << key.raw_body;
    return key.body.value("key", "");
  }
  Reply testSend(const std::string& key, const std::string& to) {
    return post("/v1/messages",
                {{"from", "+14165550100"},
                 {"to", to},
                 {"body", "Fence check"},
                 {"skip_consent_check", true}},
                key);
  }

  static constexpr const char* kListedNumber = "+14162220901";
  static constexpr const char* kContactNumber = "+14162220902";
  static constexpr const char* kMemberNumber = "+14162220903";
  static constexpr const char* kStranger = "+14162220904";

  HttpTestClient api{apiUrl()};
  TestAccount account;
  std::string list, contact, group;
};

}  // namespace

TEST_F(KeyFences, AnAllowListLetsThroughItsNumbersContactsAndGroupMembersOnly) {
  std::string key = fencedKey("TEST", {{"allow_list_id", list}});
  for (const char* to : {kListedNumber, kContactNumber, kMemberNumber}) {
    EXPECT_EQ(testSend(key, to).status, 201) << to;
  }
  Reply blocked = testSend(key, kStranger);
  EXPECT_EQ(blocked.status, 403);
  EXPECT_EQ(blocked.body["code"], "ALLOW_LIST_BLOCKED");
  EXPECT_EQ(blocked.body["details"]["to"], kStranger);
  // A group entry is expanded at the send: a member added now is reachable now.
  ASSERT_EQ(post("/v1/contact-groups/" + group + "/members", {{"phone_number", kStranger}}).status,
            201);
  EXPECT_EQ(testSend(key, kStranger).status, 201);
  // Nothing was created for the refused send.
  Reply sent = api.call("GET", "/v1/messages", bearer(key));
  EXPECT_EQ(sent.body["meta"]["total"], 4);
}

TEST_F(KeyFences, ADenyListRefusesWhomItReachesAndWinsOverTheAllowList) {
  std::string deny_only = fencedKey("TEST", {{"deny_list_id", list}});
  for (const char* to : {kListedNumber, kContactNumber, kMemberNumber}) {
    Reply refused = testSend(deny_only, to);
    EXPECT_EQ(refused.status, 403) << to;
    EXPECT_EQ(refused.body["code"], "DENY_LIST_BLOCKED") << to;
  }
  EXPECT_EQ(testSend(deny_only, kStranger).status, 201);

  std::string both = fencedKey("TEST", {{"allow_list_id", list}, {"deny_list_id", list}});
  EXPECT_EQ(testSend(both, kListedNumber).body["code"], "DENY_LIST_BLOCKED");
}

TEST_F(KeyFences, DefaultDenyWithoutAnAllowListReachesNobody) {
  std::string key = fencedKey("TEST", {{"default_deny", true}});
  Reply created_key = api.call("GET", "/v1/api-keys", bearer(account.live_key));
  bool listed = false;
  for (const auto& k : created_key.body["data"]) listed |= k["defaultDeny"] == true;
  EXPECT_TRUE(listed);
  EXPECT_EQ(testSend(key, kListedNumber).body["code"], "ALLOW_LIST_BLOCKED");
  // With an allow list, default-deny lets its recipients through.
  std::string with_list = fencedKey("TEST", {{"default_deny", true}, {"allow_list_id", list}});
  EXPECT_EQ(testSend(with_list, kListedNumber).status, 201);
  EXPECT_EQ(testSend(with_list, kStranger).body["code"], "ALLOW_LIST_BLOCKED");
}

TEST_F(KeyFences, AFenceSetOnAKeyHoldsAtItsVeryNextSend) {
  // The API keeps recent callers; a send confirms its caller, so a new fence is never late.
  std::string key = fencedKey("TEST", nlohmann::json::object());
  ASSERT_EQ(testSend(key, kStranger).status, 201);
  Reply keys = api.call("GET", "/v1/api-keys", bearer(account.live_key));
  std::string key_id;
  for (const auto& k : keys.body["data"])
    if (key.starts_with(k["keyPrefix"].get<std::string>())) key_id = k["id"];
  ASSERT_FALSE(key_id.empty());
  Reply fenced = api.call("PATCH", "/v1/api-keys/" + key_id, bearer(account.live_key),
                          {{"allow_list_id", list}});
  ASSERT_EQ(fenced.status, 200) << fenced.raw_body;
  EXPECT_EQ(fenced.body["allow_list_id"], list);
  EXPECT_EQ(testSend(key, kStranger).body["code"], "ALLOW_LIST_BLOCKED");
  Reply opened = api.call("PATCH", "/v1/api-keys/" + key_id, bearer(account.live_key),
                          {{"allow_list_id", nullptr}});
  EXPECT_TRUE(opened.body["allow_list_id"].is_null());
  EXPECT_EQ(testSend(key, kStranger).status, 201);
}

TEST_F(KeyFences, AFencedLiveSendIsRefusedBeforeAnyCharge) {
  verifyOwnerPhone(api, account);
  std::string number = buyNumber(api, account, "905")["phone_number"];
  std::string subscriber = withLiveConsent(api, account, randomSubscriber("905"));
  std::string key = fencedKey("LIVE", {{"allow_list_id", list}});
  long long before = balanceOf(api, account);
  Reply refused = post("/v1/messages", {{"from", number}, {"to", subscriber}, {"body", "Hi"}}, key);
  EXPECT_EQ(refused.status, 403) << refused.raw_body;
  EXPECT_EQ(refused.body["code"], "ALLOW_LIST_BLOCKED");
  EXPECT_EQ(balanceOf(api, account), before);
  EXPECT_EQ(balanceOf(api, account), ledgerSum(api, account));
  // On the list, the same key sends and is charged.
  ASSERT_EQ(post("/v1/contact-lists/" + list + "/entries", {{"phone_number", subscriber}}).status,
            201);
  Reply sent = post("/v1/messages", {{"from", number}, {"to", subscriber}, {"body", "Hi"}}, key);
  EXPECT_EQ(sent.status, 201) << sent.raw_body;
  EXPECT_LT(balanceOf(api, account), before);
}

TEST_F(KeyFences, AFencedKeyCannotLoosenItsFenceNorManageKeys) {
  std::string fenced = fencedKey("LIVE", {{"allow_list_id", list}});
  auto expectFenced = [&](const Reply& reply, const std::string& what) {
    EXPECT_EQ(reply.status, 403) << what << reply.raw_body;
    EXPECT_EQ(reply.body["code"], "KEY_FENCED") << what;
  };
  // Its own list, and the group and contact the list includes.
  expectFenced(
      post("/v1/contact-lists/" + list + "/entries", {{"phone_number", kStranger}}, fenced),
      "add an entry");
  expectFenced(api.call("DELETE", "/v1/contact-lists/" + list, bearer(fenced)), "delete the list");
  expectFenced(api.call("PATCH", "/v1/contact-lists/" + list, bearer(fenced), {{"name", "x"}}),
               "rename the list");
  expectFenced(
      post("/v1/contact-groups/" + group + "/members", {{"phone_number", kStranger}}, fenced),
      "add a member");
  expectFenced(api.call("DELETE", "/v1/contact-groups/" + group, bearer(fenced)),
               "delete the group");
  expectFenced(
      api.call("PATCH", "/v1/contacts/" + contact, bearer(fenced), {{"phone_number", kStranger}}),
      "renumber a contact");
  expectFenced(api.call("DELETE", "/v1/contacts/" + contact, bearer(fenced)), "delete a contact");
  // Keys: no new key, no list settings on any key, no rotation but its own.
  expectFenced(post("/v1/api-keys", {{"mode", "LIVE"}}, fenced), "create a key");
  Reply keys = api.call("GET", "/v1/api-keys", bearer(account.live_key));
  std::string own_id, other_id;
  for (const auto& k : keys.body["data"]) {
    if (fenced.starts_with(k["keyPrefix"].get<std::string>()))
      own_id = k["id"];
    else if (k["mode"] == "LIVE")
      other_id = k["id"];
  }
  ASSERT_FALSE(own_id.empty());
  ASSERT_FALSE(other_id.empty());
  expectFenced(
      api.call("PATCH", "/v1/api-keys/" + own_id, bearer(fenced), {{"allow_list_id", nullptr}}),
      "drop its own allow list");
  expectFenced(
      api.call("PATCH", "/v1/api-keys/" + other_id, bearer(fenced), {{"default_deny", true}}),
      "fence another key");
  expectFenced(post("/v1/api-keys/" + other_id + "/rotate", nlohmann::json::object(), fenced),
               "rotate another key");
  // Nothing changed.
  EXPECT_EQ(
      api.call("GET", "/v1/contact-lists/" + list, bearer(account.live_key)).body["entry_count"],
      3);
  // What its lists do not reach is its to change, and it may rotate itself, fence and all.
  std::string other_group = idOf(post("/v1/contact-groups", {{"name", "Unfenced"}}, fenced));
  EXPECT_EQ(
      post("/v1/contact-groups/" + other_group + "/members", {{"phone_number", kStranger}}, fenced)
          .status,
      201);
  Reply rotated = post("/v1/api-keys/" + own_id + "/rotate", nlohmann::json::object(), fenced);
  ASSERT_EQ(rotated.status, 200) << rotated.raw_body;
  EXPECT_EQ(rotated.body["allow_list_id"], list);
  EXPECT_EQ(testSend(rotated.body["key"], kStranger).status, 403);
}

TEST_F(KeyFences, ATestKeyCannotChangeWhatALiveKeysListReaches) {
  fencedKey("LIVE", {{"deny_list_id", list}});
  auto expectLiveRequired = [&](const Reply& reply, const std::string& what) {
    EXPECT_EQ(reply.status, 403) << what << reply.raw_body;
    EXPECT_EQ(reply.body["code"], "LIVE_KEY_REQUIRED") << what;
  };
  std::string test_key = account.test_key;
  expectLiveRequired(
      post("/v1/contact-lists/" + list + "/entries", {{"phone_number", kStranger}}, test_key),
      "add an entry");
  expectLiveRequired(
      api.call("PATCH", "/v1/contact-groups/" + group, bearer(test_key), {{"name", "Renamed"}}),
      "rename the group");
  expectLiveRequired(
      post("/v1/contact-groups/" + group + "/members", {{"phone_number", kStranger}}, test_key),
      "add a member");
  expectLiveRequired(api.call("DELETE", "/v1/contacts/" + contact, bearer(test_key)),
                     "delete a contact");
  // The group's member is included through the group.
  Reply members = api.call("GET", "/v1/contact-groups/" + group, bearer(test_key));
  std::string member = members.body["members"][0]["id"];
  expectLiveRequired(
      api.call("PATCH", "/v1/contacts/" + member, bearer(test_key), {{"name", "Renamed"}}),
      "rename a member");
  // What no LIVE key's list reaches, a TEST key may change; the LIVE key may change anything.
  std::string free_contact = idOf(post("/v1/contacts", {{"phone_number", kStranger}}, test_key));
  EXPECT_EQ(
      api.call("PATCH", "/v1/contacts/" + free_contact, bearer(test_key), {{"name", "Bo"}}).status,
      200);
  EXPECT_EQ(api.call("PATCH", "/v1/contact-groups/" + group, bearer(account.live_key),
                     {{"name", "Renamed"}})
                .status,
            200);
}

TEST_F(KeyFences, KeysTakeOnlyTheirAccountsListsAndAListInUseStays) {
  TestAccount stranger = signUp(api);
  std::string foreign = idOf(post("/v1/contact-lists", {{"name", "Theirs"}}, stranger.test_key));
  Reply theirs = post("/v1/api-keys", {{"mode", "TEST"}, {"allow_list_id", foreign}});
  EXPECT_EQ(theirs.status, 403);
  EXPECT_EQ(theirs.body["code"], "FORBIDDEN");
  Reply unknown = post("/v1/api-keys", {{"mode", "TEST"}, {"deny_list_id", "cl_missing"}});
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.body["code"], "CONTACT_LIST_NOT_FOUND");

  Reply key = post("/v1/api-keys", {{"mode", "TEST"}, {"allow_list_id", list}});
  ASSERT_EQ(key.status, 201);
  EXPECT_EQ(key.body["allow_list_id"], list);
  Reply in_use = api.call("DELETE", "/v1/contact-lists/" + list, bearer(account.live_key));
  EXPECT_EQ(in_use.status, 409);
  EXPECT_EQ(in_use.body["code"], "CONFLICT");
  EXPECT_EQ(in_use.body["details"]["reason"], "list_in_use");
  EXPECT_EQ(in_use.body["details"]["api_key_ids"], nlohmann::json::array({key.body["id"]}));
  // A revoked key lets go of it.
  ASSERT_EQ(api.call("DELETE", "/v1/api-keys/" + key.body["id"].get<std::string>(),
                     bearer(account.live_key))
                .status,
            204);
  EXPECT_EQ(api.call("DELETE", "/v1/contact-lists/" + list, bearer(account.live_key)).status, 204);

  Reply bad_patch = api.call("PATCH", "/v1/api-keys/" + key.body["id"].get<std::string>(),
                             bearer(account.live_key), {{"permissions", {{"messages", "r"}}}});
  EXPECT_EQ(bad_patch.status, 422);
}
