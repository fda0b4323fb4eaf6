// Allow/deny contact lists over HTTP: the list routes, entries of each kind, every error the
// spec lists for them, and isolation between accounts.
#include <gtest/gtest.h>

#include "tests/support/accounts.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

Reply createList(HttpTestClient& api, const std::string& key, const nlohmann::json& body) {
  return api.call("POST", "/v1/contact-lists", bearer(key), body);
}

Reply addEntry(HttpTestClient& api, const std::string& key, const std::string& list_id,
               const nlohmann::json& body) {
  return api.call("POST", "/v1/contact-lists/" + list_id + "/entries", bearer(key), body);
}

}  // namespace

TEST(ContactLists, EntriesOfEachKindShowWhatTheyName) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUpAndFund(api);  // its LIVE key reads too
  Reply created = createList(api, account.test_key, {{"name", "Allowed"}});
  ASSERT_EQ(created.status, 201) << created.raw_body;
  EXPECT_TRUE(created.body["id"].get<std::string>().starts_with("cl_"));
  EXPECT_EQ(created.body["entry_count"], 0);
  EXPECT_EQ(created.body["entries"], nlohmann::json::array());
  EXPECT_TRUE(created.body["description"].is_null());
  std::string list = idOf(created);

  std::string contact = idOf(api.call("POST", "/v1/contacts", bearer(account.test_key),
                                      {{"phone_number", "+14162220801"}, {"name", "Ada"}}));
  std::string group =
      idOf(api.call("POST", "/v1/contact-groups", bearer(account.test_key), {{"name", "Team"}}));

  Reply number = addEntry(api, account.test_key, list, {{"phone_number", "+14162220802"}});
  ASSERT_EQ(number.status, 201) << number.raw_body;
  EXPECT_EQ(number.body, (nlohmann::json{{"id", number.body["id"]},
                                         {"phone_number", "+14162220802"},
                                         {"contact_id", nullptr},
                                         {"contact_group_id", nullptr},
                                         {"contact_name", nullptr},
                                         {"contact_phone", nullptr},
                                         {"group_name", nullptr},
                                         {"added_at", number.body["added_at"]}}));
  Reply by_contact = addEntry(api, account.test_key, list, {{"contact_id", contact}});
  ASSERT_EQ(by_contact.status, 201) << by_contact.raw_body;
  EXPECT_EQ(by_contact.body["contact_name"], "Ada");
  EXPECT_EQ(by_contact.body["contact_phone"], "+14162220801");
  EXPECT_TRUE(by_contact.body["phone_number"].is_null());
  Reply by_group = addEntry(api, account.test_key, list, {{"contact_group_id", group}});
  ASSERT_EQ(by_group.status, 201) << by_group.raw_body;
  EXPECT_EQ(by_group.body["group_name"], "Team");

  Reply read = api.call("GET", "/v1/contact-lists/" + list, bearer(account.live_key));
  ASSERT_EQ(read.status, 200) << read.raw_body;
  EXPECT_EQ(read.body["entry_count"], 3);
  ASSERT_EQ(read.body["entries"].size(), 3u);
  EXPECT_EQ(read.body["entries"][0], number.body);  // oldest first

  // The entry shows the contact as it is now.
  api.call("PATCH", "/v1/contacts/" + contact, bearer(account.test_key), {{"name", "Ada L."}});
  Reply after = api.call("GET", "/v1/contact-lists/" + list, bearer(account.test_key));
  EXPECT_EQ(after.body["entries"][1]["contact_name"], "Ada L.");

  std::string entry_path = "/v1/contact-lists/" + list + "/entries/" + idOf(number);
  EXPECT_EQ(api.call("DELETE", entry_path, bearer(account.test_key)).status, 204);
  Reply gone = api.call("DELETE", entry_path, bearer(account.test_key));
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.body["code"], "CONTACT_LIST_ENTRY_NOT_FOUND");

  // Deleting the group or the contact takes its entry out of the list.
  api.call("DELETE", "/v1/contact-groups/" + group, bearer(account.test_key));
  EXPECT_EQ(
      api.call("GET", "/v1/contact-lists/" + list, bearer(account.test_key)).body["entry_count"],
      1);

  EXPECT_EQ(api.call("DELETE", "/v1/contact-lists/" + list, bearer(account.test_key)).status, 204);
  Reply deleted = api.call("GET", "/v1/contact-lists/" + list, bearer(account.test_key));
  EXPECT_EQ(deleted.status, 404);
  EXPECT_EQ(deleted.body["code"], "CONTACT_LIST_NOT_FOUND");
  EXPECT_EQ(api.call("GET", "/v1/contacts/" + contact, bearer(account.test_key)).status, 200);
}

TEST(ContactLists, AnEntryNamesExactlyOneThingOnce) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  std::string list = idOf(createList(api, account.test_key, {{"name", "Deny"}}));
  std::string contact = idOf(api.call("POST", "/v1/contacts", bearer(account.test_key),
                                      {{"phone_number", "+14162220811"}}));
  std::string email_only = idOf(
      api.call("POST", "/v1/contacts", bearer(account.test_key), {{"email", "cy@example.ca"}}));
  for (const nlohmann::json& invalid :
       {nlohmann::json::object(),
        nlohmann::json{{"phone_number", "+14162220812"}, {"contact_id", contact}},
        nlohmann::json{{"contact_id", contact}, {"contact_group_id", "cg_x"}},
        nlohmann::json{{"phone_number", nullptr}}, nlohmann::json{{"contact_id", 42}}}) {
    Reply answer = addEntry(api, account.test_key, list, invalid);
    EXPECT_EQ(answer.status, 422) << invalid;
    EXPECT_EQ(answer.body["code"], "CONTACT_LIST_ENTRY_INVALID") << invalid;
  }
  EXPECT_EQ(addEntry(api, account.test_key, list, {{"phone_number", "416"}}).body["code"],
            "INVALID_PHONE_NUMBER");
  EXPECT_EQ(addEntry(api, account.test_key, list, {{"contact_id", "ct_missing"}}).body["code"],
            "CONTACT_NOT_FOUND");
  EXPECT_EQ(addEntry(api, account.test_key, list, {{"contact_id", email_only}}).body["code"],
            "CONTACT_HAS_NO_PHONE");
  EXPECT_EQ(
      addEntry(api, account.test_key, list, {{"contact_group_id", "cg_missing"}}).body["code"],
      "CONTACT_GROUP_NOT_FOUND");
  EXPECT_EQ(addEntry(api, account.test_key, "cl_missing", {{"phone_number", "+14162220812"}})
                .body["code"],
            "CONTACT_LIST_NOT_FOUND");

  ASSERT_EQ(addEntry(api, account.test_key, list, {{"phone_number", "+14162220812"}}).status, 201);
  Reply twice = addEntry(api, account.test_key, list, {{"phone_number", "+14162220812"}});
  EXPECT_EQ(twice.status, 409);
  EXPECT_EQ(twice.body["code"], "CONTACT_LIST_ENTRY_EXISTS");
  ASSERT_EQ(addEntry(api, account.test_key, list, {{"contact_id", contact}}).status, 201);
  EXPECT_EQ(addEntry(api, account.test_key, list, {{"contact_id", contact}}).body["code"],
            "CONTACT_LIST_ENTRY_EXISTS");
  EXPECT_EQ(
      api.call("GET", "/v1/contact-lists/" + list, bearer(account.test_key)).body["entry_count"],
      2);
}

TEST(ContactLists, NamesAreUniqueAndTheListPages) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  ASSERT_EQ(createList(api, account.test_key, {{"name", "Partners"}, {"description", "ok"}}).status,
            201);
  Reply same = createList(api, account.test_key, {{"name", "partners"}});
  EXPECT_EQ(same.status, 409);
  EXPECT_EQ(same.body["code"], "CONTACT_LIST_ALREADY_EXISTS");
  std::string other = idOf(createList(api, account.test_key, {{"name", "Blocked"}}));
  Reply rename = api.call("PATCH", "/v1/contact-lists/" + other, bearer(account.test_key),
                          {{"name", "PARTNERS"}});
  EXPECT_EQ(rename.body["code"], "CONTACT_LIST_ALREADY_EXISTS");
  Reply described = api.call("PATCH", "/v1/contact-lists/" + other, bearer(account.test_key),
                             {{"description", "never text"}});
  ASSERT_EQ(described.status, 200);
  EXPECT_EQ(described.body["description"], "never text");
  EXPECT_EQ(described.body["name"], "Blocked");
  EXPECT_EQ(createList(api, account.test_key, {{"description", "no name"}}).status, 422);

  Reply page = api.call("GET", "/v1/contact-lists?limit=1", bearer(account.test_key));
  EXPECT_EQ(page.body["total"], 2);
  EXPECT_EQ(page.body["limit"], 1);
  EXPECT_EQ(page.body["offset"], 0);
  ASSERT_EQ(page.body["data"].size(), 1u);
  EXPECT_EQ(page.body["data"][0]["id"], other);  // newest first
  EXPECT_EQ(
      api.call("GET", "/v1/contact-lists?search=PART", bearer(account.test_key)).body["total"], 1);
}

TEST(ContactLists, AnotherAccountsListsAndEntriesAreForbidden) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  TestAccount stranger = signUp(api);
  std::string list = idOf(createList(api, owner.test_key, {{"name", "Private"}}));
  std::string entry = idOf(addEntry(api, owner.test_key, list, {{"phone_number", "+14162220821"}}));
  std::string path = "/v1/contact-lists/" + list;
  for (auto [method, suffix, body] :
       std::vector<std::tuple<std::string, std::string, nlohmann::json>>{
           {"GET", "", nullptr},
           {"PATCH", "", {{"name", "Mine"}}},
           {"DELETE", "", nullptr},
           {"POST", "/entries", {{"phone_number", "+14162220822"}}},
           {"DELETE", "/entries/" + entry, nullptr}}) {
    Reply answer = api.call(method, path + suffix, bearer(stranger.test_key), body);
    EXPECT_EQ(answer.status, 403) << method << suffix;
    EXPECT_FALSE(answer.body.contains("entries")) << method << suffix;
  }
  // Under the stranger's own list, the owner's entry id is unknown; the owner's contact or
  // group cannot be entered.
  std::string own = idOf(createList(api, stranger.test_key, {{"name", "Mine"}}));
  EXPECT_EQ(api.call("DELETE", "/v1/contact-lists/" + own + "/entries/" + entry,
                     bearer(stranger.test_key))
                .body["code"],
            "CONTACT_LIST_ENTRY_NOT_FOUND");
  std::string contact = idOf(
      api.call("POST", "/v1/contacts", bearer(owner.test_key), {{"phone_number", "+14162220823"}}));
  EXPECT_EQ(addEntry(api, stranger.test_key, own, {{"contact_id", contact}}).status, 403);
  EXPECT_EQ(api.call("GET", path, bearer(owner.test_key)).body["entry_count"], 1);  // unchanged
}
