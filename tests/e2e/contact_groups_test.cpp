// Contact groups over HTTP: the eight routes but broadcast (contact_group_broadcasts_test.cpp),
// every error the spec lists for them, and isolation between accounts.
#include <gtest/gtest.h>

#include "tests/support/accounts.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

Reply createGroup(HttpTestClient& api, const std::string& key, const nlohmann::json& body) {
  return api.call("POST", "/v1/contact-groups", bearer(key), body);
}

Reply addMember(HttpTestClient& api, const std::string& key, const std::string& group_id,
                const nlohmann::json& body) {
  return api.call("POST", "/v1/contact-groups/" + group_id + "/members", bearer(key), body);
}

}  // namespace

TEST(ContactGroups, CreateReadRenameAndDeleteKeepingTheContacts) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUpAndFund(api);  // its LIVE key reads too
  Reply created =
      createGroup(api, account.test_key, {{"name", "VIP"}, {"description", "Best customers"}});
  ASSERT_EQ(created.status, 201) << created.raw_body;
  EXPECT_TRUE(created.body["id"].get<std::string>().starts_with("cg_"));
  EXPECT_EQ(created.body["member_count"], 0);
  EXPECT_EQ(created.body["members"], nlohmann::json::array());
  for (const char* field : {"name", "description", "created_at", "updated_at"})
    EXPECT_TRUE(created.body.contains(field)) << field;
  std::string path = "/v1/contact-groups/" + idOf(created);

  Reply member = addMember(api, account.test_key, idOf(created),
                           {{"phone_number", "+14162220201"}});  // creates the contact
  ASSERT_EQ(member.status, 201) << member.raw_body;
  EXPECT_TRUE(member.body["id"].get<std::string>().starts_with("ct_"));
  EXPECT_EQ(member.body["phone_number"], "+14162220201");
  EXPECT_TRUE(member.body["name"].is_null());
  EXPECT_TRUE(member.body.contains("added_at"));

  Reply read = api.call("GET", path, bearer(account.live_key));  // shared by both modes
  ASSERT_EQ(read.status, 200);
  EXPECT_EQ(read.body["member_count"], 1);
  EXPECT_EQ(read.body["members"][0],
            (nlohmann::json{
                {"id", member.body["id"]}, {"phone_number", "+14162220201"}, {"name", nullptr}}));

  Reply renamed = api.call("PATCH", path, bearer(account.test_key), {{"name", "Gold"}});
  ASSERT_EQ(renamed.status, 200) << renamed.raw_body;
  EXPECT_EQ(renamed.body["name"], "Gold");
  EXPECT_EQ(renamed.body["description"], "Best customers");  // untouched
  Reply cleared = api.call("PATCH", path, bearer(account.test_key), {{"description", nullptr}});
  EXPECT_TRUE(cleared.body["description"].is_null());

  EXPECT_EQ(api.call("DELETE", path, bearer(account.test_key)).status, 204);
  Reply gone = api.call("GET", path, bearer(account.test_key));
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.body["code"], "CONTACT_GROUP_NOT_FOUND");
  // The contact stays.
  Reply contact = api.call("GET", "/v1/contacts/" + member.body["id"].get<std::string>(),
                           bearer(account.test_key));
  EXPECT_EQ(contact.status, 200);
}

TEST(ContactGroups, NamesAreUniqueWithoutRegardToCase) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  ASSERT_EQ(createGroup(api, account.test_key, {{"name", "Montréal"}}).status, 201);
  Reply same = createGroup(api, account.test_key, {{"name", "MONTRÉAL"}});
  EXPECT_EQ(same.status, 409);
  EXPECT_EQ(same.body["code"], "CONTACT_GROUP_ALREADY_EXISTS");
  std::string other = idOf(createGroup(api, account.test_key, {{"name", "Laval"}}));
  Reply rename = api.call("PATCH", "/v1/contact-groups/" + other, bearer(account.test_key),
                          {{"name", "montréal"}});
  EXPECT_EQ(rename.status, 409);
  EXPECT_EQ(rename.body["code"], "CONTACT_GROUP_ALREADY_EXISTS");
  // Renaming a group to its own name in another case is no conflict.
  EXPECT_EQ(api.call("PATCH", "/v1/contact-groups/" + other, bearer(account.test_key),
                     {{"name", "LAVAL"}})
                .status,
            200);

  EXPECT_EQ(createGroup(api, account.test_key, {}).body["code"], "VALIDATION_ERROR");
  EXPECT_EQ(createGroup(api, account.test_key, {{"name", ""}}).body["code"], "VALIDATION_ERROR");
  EXPECT_EQ(createGroup(api, account.test_key, {{"name", std::string(201, 'a')}}).status, 422);
  EXPECT_EQ(createGroup(api, account.test_key, {{"name", "x"}, {"colour", "red"}}).status, 422);
  // Another account may use the same name.
  TestAccount stranger = signUp(api);
  EXPECT_EQ(createGroup(api, stranger.test_key, {{"name", "Montréal"}}).status, 201);
}

TEST(ContactGroups, ListSearchesNamesWithoutCaseNewestFirstWithMembers) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  std::vector<std::string> ids;
  for (const char* name : {"Clients Québec", "Clients Ontario", "Staff", "quebec weekend"}) {
    ids.push_back(idOf(createGroup(api, account.test_key, {{"name", name}})));
  }
  ASSERT_EQ(addMember(api, account.test_key, ids[0], {{"phone_number", "+14182220301"}}).status,
            201);
  Reply all = api.call("GET", "/v1/contact-groups?limit=2", bearer(account.test_key));
  ASSERT_EQ(all.status, 200);
  EXPECT_EQ(all.body["total"], 4);
  EXPECT_EQ(all.body["limit"], 2);
  EXPECT_EQ(all.body["offset"], 0);
  ASSERT_EQ(all.body["data"].size(), 2u);
  EXPECT_EQ(all.body["data"][0]["id"], ids[3]);  // newest first

  Reply clients = api.call("GET", "/v1/contact-groups?search=CLIENTS", bearer(account.test_key));
  EXPECT_EQ(clients.body["total"], 2);
  Reply page2 =
      api.call("GET", "/v1/contact-groups?search=clients&offset=1", bearer(account.test_key));
  ASSERT_EQ(page2.body["data"].size(), 1u);
  EXPECT_EQ(page2.body["data"][0]["id"], ids[0]);
  EXPECT_EQ(page2.body["data"][0]["member_count"], 1);
  EXPECT_EQ(page2.body["data"][0]["members"][0]["phone_number"], "+14182220301");
  // Partial, case-insensitive; accents are compared as written.
  EXPECT_EQ(
      api.call("GET", "/v1/contact-groups?search=QUEBEC", bearer(account.test_key)).body["total"],
      1);
  // Issue 34, item 8: a query is read as forms encode it, '+' a space (URLSearchParams and
  // browsers' forms send "Clients+Qu%C3%A9bec").
  EXPECT_EQ(
      api.call("GET", "/v1/contact-groups?search=clients+qu%C3%A9bec", bearer(account.test_key))
          .body["total"],
      1);
  EXPECT_EQ(
      api.call("GET", "/v1/contact-groups?search=clients%20qu%C3%A9bec", bearer(account.test_key))
          .body["total"],
      1);
  EXPECT_EQ(api.call("GET", "/v1/contact-groups?offset=-1", bearer(account.test_key)).status, 422);
  EXPECT_EQ(api.call("GET", "/v1/contact-groups?limit=101", bearer(account.test_key)).status, 422);
}

TEST(ContactGroups, MembersByContactOrNumberAndTheirErrors) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  std::string group = idOf(createGroup(api, account.test_key, {{"name", "Runners"}}));
  Reply ada = api.call("POST", "/v1/contacts", bearer(account.test_key),
                       {{"phone_number", "+15142220401"}, {"name", "Ada"}});
  Reply email_only =
      api.call("POST", "/v1/contacts", bearer(account.test_key), {{"email", "bo@example.ca"}});

  Reply by_id = addMember(api, account.test_key, group, {{"contact_id", idOf(ada)}});
  ASSERT_EQ(by_id.status, 201) << by_id.raw_body;
  EXPECT_EQ(by_id.body["name"], "Ada");
  Reply twice = addMember(api, account.test_key, group, {{"contact_id", idOf(ada)}});
  EXPECT_EQ(twice.status, 409);
  EXPECT_EQ(twice.body["code"], "CONTACT_GROUP_MEMBER_EXISTS");
  // The same number finds the same contact: still a member.
  EXPECT_EQ(
      addMember(api, account.test_key, group, {{"phone_number", "+15142220401"}}).body["code"],
      "CONTACT_GROUP_MEMBER_EXISTS");

  EXPECT_EQ(
      addMember(api, account.test_key, group, {{"contact_id", idOf(email_only)}}).body["code"],
      "CONTACT_HAS_NO_PHONE");
  EXPECT_EQ(addMember(api, account.test_key, group, {{"contact_id", "ct_missing"}}).body["code"],
            "CONTACT_NOT_FOUND");
  EXPECT_EQ(addMember(api, account.test_key, group, {{"phone_number", "514-222"}}).body["code"],
            "INVALID_PHONE_NUMBER");
  EXPECT_EQ(addMember(api, account.test_key, group, nlohmann::json::object()).body["code"],
            "VALIDATION_ERROR");
  EXPECT_EQ(addMember(api, account.test_key, group,
                      {{"contact_id", idOf(ada)}, {"phone_number", "+15142220402"}})
                .body["code"],
            "VALIDATION_ERROR");
  EXPECT_EQ(
      addMember(api, account.test_key, "cg_missing", {{"contact_id", idOf(ada)}}).body["code"],
      "CONTACT_GROUP_NOT_FOUND");

  // A member's phone number cannot be cleared while it is in the group.
  Reply clear = api.call("PATCH", "/v1/contacts/" + idOf(ada), bearer(account.test_key),
                         {{"phone_number", nullptr}, {"email", "ada@example.ca"}});
  EXPECT_EQ(clear.status, 409);
  EXPECT_EQ(clear.body["code"], "CONTACT_IN_USE");

  std::string member_path = "/v1/contact-groups/" + group + "/members/" + idOf(ada);
  EXPECT_EQ(api.call("DELETE", member_path, bearer(account.test_key)).status, 204);
  Reply again = api.call("DELETE", member_path, bearer(account.test_key));
  EXPECT_EQ(again.status, 404);
  EXPECT_EQ(again.body["code"], "CONTACT_GROUP_MEMBER_NOT_FOUND");
  EXPECT_EQ(api.call("DELETE", "/v1/contact-groups/cg_missing/members/" + idOf(ada),
                     bearer(account.test_key))
                .body["code"],
            "CONTACT_GROUP_NOT_FOUND");
  EXPECT_EQ(api.call("GET", "/v1/contacts/" + idOf(ada), bearer(account.test_key)).status, 200);
  // Out of every group and list, the number may be cleared.
  EXPECT_EQ(api.call("PATCH", "/v1/contacts/" + idOf(ada), bearer(account.test_key),
                     {{"phone_number", nullptr}, {"email", "ada@example.ca"}})
                .status,
            200);
}

TEST(ContactGroups, AnotherAccountsGroupsAndContactsAreForbidden) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  TestAccount stranger = signUp(api);
  std::string group = idOf(createGroup(api, owner.test_key, {{"name", "Private"}}));
  Reply contact =
      api.call("POST", "/v1/contacts", bearer(owner.test_key), {{"phone_number", "+16132220501"}});
  ASSERT_EQ(addMember(api, owner.test_key, group, {{"contact_id", idOf(contact)}}).status, 201);
  std::string path = "/v1/contact-groups/" + group;
  for (auto [method, suffix, body] :
       std::vector<std::tuple<std::string, std::string, nlohmann::json>>{
           {"GET", "", nullptr},
           {"PATCH", "", {{"name", "Mine"}}},
           {"DELETE", "", nullptr},
           {"POST", "/members", {{"phone_number", "+16132220502"}}},
           {"DELETE", "/members/" + idOf(contact), nullptr}}) {
    Reply answer = api.call(method, path + suffix, bearer(stranger.test_key), body);
    EXPECT_EQ(answer.status, 403) << method << suffix;
    EXPECT_FALSE(answer.body.contains("members")) << method << suffix;
  }
  // The stranger's own group cannot take the owner's contact.
  std::string own = idOf(createGroup(api, stranger.test_key, {{"name", "Mine"}}));
  EXPECT_EQ(addMember(api, stranger.test_key, own, {{"contact_id", idOf(contact)}}).status, 403);
  EXPECT_EQ(api.call("GET", "/v1/contact-groups", bearer(stranger.test_key)).body["total"], 1);
  EXPECT_EQ(api.call("GET", path, bearer(owner.test_key)).body["member_count"], 1);  // unchanged
}

TEST(ContactGroups, PermissionLettersGuardEachRoute) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  std::string group = idOf(createGroup(api, account.test_key, {{"name", "Guarded"}}));
  auto keyWith = [&](nlohmann::json permissions) {
    Reply key = api.call("POST", "/v1/api-keys", bearer(account.test_key),
                         {{"mode", "TEST"}, {"permissions", permissions}});
    EXPECT_EQ(key.status, 201) << key.raw_body;
    return key.body.value("key", "");
  };
  std::string reader = keyWith({{"contact_groups", "r"}});
  std::string writer = keyWith({{"contact_groups", "w"}});
  std::string path = "/v1/contact-groups/" + group;
  EXPECT_EQ(api.call("GET", path, bearer(reader)).status, 200);
  EXPECT_EQ(createGroup(api, reader, {{"name", "No"}}).status, 403);
  EXPECT_EQ(createGroup(api, writer, {{"name", "Yes"}}).status, 201);
  EXPECT_EQ(api.call("PATCH", path, bearer(writer), {{"name", "No"}}).status, 403);
  EXPECT_EQ(addMember(api, writer, group, {{"phone_number", "+14162220601"}}).status, 403);
  EXPECT_EQ(api.call("DELETE", path, bearer(writer)).status, 403);
  EXPECT_EQ(api.call("GET", path, bearer(writer)).status, 403);
}
