// Contacts over HTTP: create, list with search and paging, read, change, delete, and every
// error the spec lists for them.
#include <gtest/gtest.h>

#include "tests/support/accounts.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

Reply createContact(HttpTestClient& api, const std::string& key, const nlohmann::json& body) {
  return api.call("POST", "/v1/contacts", bearer(key), body);
}

}  // namespace

TEST(Contacts, CreateReadChangeDelete) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUpAndFund(api);
  Reply created = createContact(api, account.test_key,
                                {{"phone_number", "+14165550140"},
                                 {"email", "Ada@Example.CA"},
                                 {"name", "Ada"},
                                 {"notes", "prefers mornings"}});
  ASSERT_EQ(created.status, 201) << created.raw_body;
  EXPECT_TRUE(created.body["id"].get<std::string>().starts_with("ct_"));
  EXPECT_EQ(created.body["email"], "ada@example.ca");  // lower-cased
  EXPECT_EQ(created.body["phone_number"], "+14165550140");
  for (const char* field : {"created_at", "updated_at", "notes", "name"})
    EXPECT_TRUE(created.body.contains(field)) << field;
  std::string path = "/v1/contacts/" + created.body["id"].get<std::string>();

  Reply read = api.call("GET", path, bearer(account.live_key));  // shared by both modes
  EXPECT_EQ(read.status, 200);
  EXPECT_EQ(read.body, created.body);

  Reply changed =
      api.call("PATCH", path, bearer(account.test_key), {{"name", "Ada L."}, {"email", nullptr}});
  ASSERT_EQ(changed.status, 200) << changed.raw_body;
  EXPECT_EQ(changed.body["name"], "Ada L.");
  EXPECT_TRUE(changed.body["email"].is_null());
  EXPECT_EQ(changed.body["notes"], "prefers mornings");  // untouched

  EXPECT_EQ(api.call("DELETE", path, bearer(account.test_key)).status, 204);
  Reply gone = api.call("GET", path, bearer(account.test_key));
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.body["code"], "CONTACT_NOT_FOUND");
}

TEST(Contacts, NeedAPhoneOrAnEmailEachNamingOneContact) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Reply neither = createContact(api, account.test_key, {{"name", "Nobody"}});
  EXPECT_EQ(neither.status, 422);
  EXPECT_EQ(neither.body["code"], "VALIDATION_ERROR");
  EXPECT_EQ(createContact(api, account.test_key, {{"phone_number", "416-555"}}).body["code"],
            "INVALID_PHONE_NUMBER");
  EXPECT_EQ(createContact(api, account.test_key, {{"email", "not-an-address"}}).status, 422);
  EXPECT_EQ(
      createContact(api, account.test_key, {{"phone_number", "+1416"}, {"colour", "red"}}).status,
      422);

  ASSERT_EQ(createContact(api, account.test_key, {{"phone_number", "+14165550141"}}).status, 201);
  Reply same_phone = createContact(api, account.test_key, {{"phone_number", "+14165550141"}});
  EXPECT_EQ(same_phone.status, 409);
  EXPECT_EQ(same_phone.body["code"], "CONTACT_ALREADY_EXISTS");
  ASSERT_EQ(createContact(api, account.test_key, {{"email", "bo@example.ca"}}).status, 201);
  EXPECT_EQ(createContact(api, account.test_key, {{"email", "BO@example.ca"}}).body["code"],
            "CONTACT_ALREADY_EXISTS");

  // Another account may hold the same number.
  TestAccount other = signUp(api);
  EXPECT_EQ(createContact(api, other.test_key, {{"phone_number", "+14165550141"}}).status, 201);

  // A change may not take another contact's number, nor clear both ways to reach one.
  Reply email_only = createContact(api, account.test_key, {{"email", "cy@example.ca"}});
  std::string path = "/v1/contacts/" + email_only.body["id"].get<std::string>();
  EXPECT_EQ(api.call("PATCH", path, bearer(account.test_key), {{"phone_number", "+14165550141"}})
                .body["code"],
            "CONTACT_ALREADY_EXISTS");
  EXPECT_EQ(api.call("PATCH", path, bearer(account.test_key), {{"email", nullptr}}).body["code"],
            "VALIDATION_ERROR");
}

TEST(Contacts, ListSearchesAndPages) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(createContact(api, account.test_key,
                            {{"phone_number", "+1416555016" + std::to_string(i)},
                             {"name", i % 2 ? "Martin Tremblay" : "Sofia Roy"}})
                  .status,
              201);
  }
  Reply page = api.call("GET", "/v1/contacts?limit=2&offset=1", bearer(account.test_key));
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(page.body["total"], 5);
  EXPECT_EQ(page.body["limit"], 2);
  EXPECT_EQ(page.body["offset"], 1);
  ASSERT_EQ(page.body["data"].size(), 2u);
  EXPECT_EQ(page.body["data"][0]["phone_number"], "+14165550163");  // newest first

  Reply search = api.call("GET", "/v1/contacts?search=trem", bearer(account.test_key));
  EXPECT_EQ(search.body["total"], 2);
  Reply by_number = api.call("GET", "/v1/contacts?search=5550164", bearer(account.test_key));
  EXPECT_EQ(by_number.body["total"], 1);
  // A number searched with its '+', encoded or not (a bare '+' arrives as a space).
  for (const char* query : {"search=%2B14165550164", "search=+14165550164"})
    EXPECT_EQ(api.call("GET", std::string("/v1/contacts?") + query, bearer(account.test_key))
                  .body["total"],
              1)
        << query;
  EXPECT_EQ(api.call("GET", "/v1/contacts?search=martin+tremblay", bearer(account.test_key))
                .body["total"],
            2);
  EXPECT_EQ(api.call("GET", "/v1/contacts?limit=0", bearer(account.test_key)).status, 422);
}

TEST(Contacts, AnotherAccountsContactIsForbiddenAndPermissionsHold) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  TestAccount stranger = signUp(api);
  Reply created = createContact(api, owner.test_key, {{"phone_number", "+14165550170"}});
  std::string path = "/v1/contacts/" + created.body["id"].get<std::string>();
  for (const char* method : {"GET", "PATCH", "DELETE"}) {
    Reply answer =
        api.call(method, path, bearer(stranger.test_key),
                 std::string(method) == "PATCH" ? nlohmann::json{{"name", "x"}} : nlohmann::json());
    EXPECT_EQ(answer.status, 403) << method;
    EXPECT_FALSE(answer.body.contains("phone_number")) << method;
  }
  EXPECT_EQ(api.call("GET", "/v1/contacts", bearer(stranger.test_key)).body["total"], 0);

  Reply reader = api.call("POST", "/v1/api-keys", bearer(owner.test_key),
                          {{"mode", "TEST"}, {"permissions", {{"contacts", "r"}}}});
  ASSERT_EQ(reader.status, 201) << reader.raw_body;
  std::string read_only = reader.body["key"];
  EXPECT_EQ(api.call("GET", path, bearer(read_only)).status, 200);
  EXPECT_EQ(createContact(api, read_only, {{"phone_number", "+14165550171"}}).status, 403);
  EXPECT_EQ(api.call("DELETE", path, bearer(read_only)).status, 403);
}
