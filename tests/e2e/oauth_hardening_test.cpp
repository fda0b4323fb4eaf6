// What a connected app and an anonymous client could still do after OAuth landed (issue 34),
// each as the attacker tried it: keys and webhooks that outlived a connection, strangers'
// requests holding the threads accounts need, password guessing spread over addresses, error
// texts that scanned ports, names that spoofed, documents nested to the stack's limit.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>

#include "tests/support/accounts.h"
#include "tests/support/eventually.h"
#include "tests/support/oauth_flow.h"
#include "tests/support/raw_http.h"
#include "tests/support/test_env.h"
#include "tests/support/webhook_receiver.h"
#include "tests/support/webhooks.h"

using namespace smsgw::testing;
using namespace std::chrono_literals;

namespace {

// A loopback address of this test's own (127.0.0.2-254), so the per-address limits it meets are
// its own.
std::string ownLoopbackAddress() {
  std::random_device seed;
  return "127.0.0." + std::to_string(2 + seed() % 253);
}

Reply mcpGetBalance(HttpTestClient& api, const std::string& key) {
  return api.call("POST", "/mcp", bearer(key),
                  {{"jsonrpc", "2.0"},
                   {"id", 1},
                   {"method", "tools/call"},
                   {"params", {{"name", "get_balance"}, {"arguments", nlohmann::json::object()}}}});
}

// The consent page for a client known by `client_id` (a metadata document's URL).
Reply consentPageFor(HttpTestClient& api, const std::string& client_id) {
  OAuthClient client = OAuthClient::knownBy(api, client_id, "http://127.0.0.1:7/cb");
  return client.open().page;
}

// A TCP port on loopback that nothing listens on: bound, then closed.
int closedLoopbackPort() {
  WebhookReceiver probe;
  return probe.port();
}

}  // namespace

// Issue 34, item 1: a grant's token made an ordinary key that kept working after the grant was
// revoked. It may make no key at all now, nor rotate one (which would hand it a standing key's
// new secret).
TEST(OAuthHardening, AConnectedAppCannotMakeOrRotateKeys) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  OAuthClient client(api);
  client.request["scope"] = "api_keys:rwmd account:r";
  nlohmann::json tokens = client.connect(owner);
  std::string access = tokens["access_token"];
  ASSERT_EQ(tokens["scope"], "account:r api_keys:rwmd");

  Reply minted = api.call("POST", "/v1/api-keys", bearer(access), {{"mode", "TEST"}});
  EXPECT_EQ(minted.status, 403) << minted.raw_body;
  EXPECT_EQ(minted.body["code"], "FORBIDDEN");
  EXPECT_EQ(minted.body["details"]["reason"], "oauth_token_cannot_make_keys");

  Reply owners_keys = api.call("GET", "/v1/api-keys", bearer(access));
  ASSERT_EQ(owners_keys.status, 200) << owners_keys.raw_body;
  std::string owner_key_id;
  for (const auto& key : owners_keys.body["data"])
    if (!key.value("oauth_grant", false) && key["mode"] == "TEST") owner_key_id = key["id"];
  ASSERT_FALSE(owner_key_id.empty());
  Reply rotated =
      api.call("POST", "/v1/api-keys/" + owner_key_id + "/rotate", bearer(access), nullptr);
  EXPECT_EQ(rotated.status, 403) << rotated.raw_body;
  EXPECT_EQ(rotated.body["details"]["reason"], "oauth_token_cannot_make_keys");
  // The owner's key still works: nothing was rotated.
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", bearer(owner.test_key)).status, 200);
}

// Item 1, webhooks: an endpoint a grant's token registered kept receiving the account's events
// after the grant ended. It belongs to the grant now and ends with it, however the grant ends;
// an endpoint the owner made cannot be re-pointed by the app.
TEST(OAuthHardening, WebhooksAConnectedAppRegisteredEndWithItsConnection) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  WebhookReceiver apps_server, owners_server;
  Endpoint owners = registerEndpoint(api, owner, owners_server.url());

  for (const char* ending : {"revoke", "delete_key"}) {
    SCOPED_TRACE(ending);
    OAuthClient client(api);
    client.request["scope"] = "webhooks:rwmd messages:rw account:r";
    nlohmann::json tokens = client.connect(owner);
    std::string access = tokens["access_token"];
    Reply made = api.call("POST", "/v1/webhooks", bearer(access),
                          {{"url", apps_server.url()}, {"events", {"message.queued"}}});
    ASSERT_EQ(made.status, 201) << made.raw_body;
    std::string endpoint_id = made.body["id"];
    // Another's endpoint stays the owner's: re-pointed at the app, it would outlive the grant.
    Reply repointed = api.call("PATCH", "/v1/webhooks/" + owners.id, bearer(access),
                               {{"url", apps_server.url()}});
    EXPECT_EQ(repointed.status, 403) << repointed.raw_body;
    EXPECT_EQ(repointed.body["details"]["reason"], "endpoint_of_another_connection");
    EXPECT_EQ(api.call("DELETE", "/v1/webhooks/" + owners.id, bearer(access)).status, 403);

    // While the connection lives, its endpoint receives the account's events.
    size_t before = apps_server.received();
    sendTestMessage(api, owner);
    EXPECT_GT(apps_server.waitFor(before + 1, 30s).size(), before);

    if (std::string(ending) == "revoke") {
      Reply revoked = postForm(api, "/oauth/revoke",
                               {{"token", tokens["refresh_token"]}, {"client_id", client.id()}});
      ASSERT_EQ(revoked.status, 200) << revoked.raw_body;
    } else {
      std::string key_id =
          api.call("GET", "/v1/accounts/me", bearer(access)).body["caller"]["key_id"];
      ASSERT_EQ(api.call("DELETE", "/v1/api-keys/" + key_id, bearer(owner.test_key)).status, 204);
    }
    EXPECT_EQ(api.call("GET", "/v1/webhooks/" + endpoint_id, bearer(owner.test_key)).status, 404);
    Reply listed = api.call("GET", "/v1/webhooks", bearer(owner.test_key));
    for (const auto& endpoint : listed.body["data"]) EXPECT_NE(endpoint["id"], endpoint_id);

    // The owner's endpoint gets the next events; the app's gets none of them.
    size_t apps_before = apps_server.received();
    deliveriesBeforeMarker(api, owner, owners_server);
    EXPECT_EQ(apps_server.received(), apps_before);
  }
}

// Item 2: eight consent-page requests naming a metadata document on a server that never
// answers, from two addresses, held every slow-lane thread: an account's MCP call waited
// seconds behind them. Strangers' requests have a lane of their own now, and a document that
// failed is not fetched again for a minute.
TEST(OAuthHardening, StrangersWaitingOnADeadServerHoldNothingAnAccountNeeds) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  OAuthClient connected(api);
  std::string access = connected.connect(account)["access_token"];
  WebhookReceiver dead_server;
  dead_server.answerWith(ReceiverAnswer::Hang);
  std::string client_id = dead_server.url() + "/client.json";
  OAuthClient stranger = OAuthClient::knownBy(api, client_id, "http://127.0.0.1:7/cb");
  FormFields query(stranger.request.begin(), stranger.request.end());
  std::string request = rawRequest("GET", "/oauth/authorize?" + formEncoded(query));

  std::string first = ownLoopbackAddress(), second = ownLoopbackAddress();
  std::atomic<int> answered{0};
  std::vector<std::thread> strangers;
  strangers.reserve(8);
  for (int i = 0; i < 8; ++i) {
    strangers.emplace_back([&, i] {
      RawHttpConnection connection(apiUrl(), i % 2 ? first : second);
      connection.send(request);
      connection.read(30s);
      ++answered;
    });
  }
  // The fetches are under way: the dead server holds them until the fetch gives up (5 s).
  dead_server.waitFor(2, 10s);
  EXPECT_GE(dead_server.received(), 2u);
  Reply balance = mcpGetBalance(api, access);
  EXPECT_EQ(answered.load(), 0) << "the account's call waited for a stranger's request to end";
  EXPECT_EQ(balance.status, 200) << balance.raw_body;
  for (auto& thread : strangers) thread.join();
  EXPECT_EQ(answered.load(), 8);

  // The failure is remembered: the next request is answered without another fetch.
  size_t fetches = dead_server.received();
  Reply again = consentPageFor(api, client_id);
  EXPECT_EQ(again.status, 400);
  EXPECT_NE(again.raw_body.find("metadata_document_unusable"), std::string::npos);
  EXPECT_EQ(dead_server.received(), fetches);
}

// Item 4: 24 wrong passwords from one address and the right one from the next gave a code.
// Wrong passwords are counted per account now, from any address: after five the password is not
// even checked for a while, and an email no account has is treated the same.
TEST(OAuthHardening, WrongPasswordsLockTheAccountsConsentWhateverTheAddress) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  OAuthClient client(api);
  for (int i = 0; i < 5; ++i) {
    Reply wrong = client.submit(client.open(), owner, {{"password", "not the password"}});
    ASSERT_EQ(wrong.status, 200) << "try " << i << ": " << wrong.raw_body;
    EXPECT_NE(wrong.raw_body.find("do not match an account"), std::string::npos);
  }
  Reply right = client.submit(client.open(), owner);
  EXPECT_EQ(right.status, 200) << "the right password after five wrong ones gave a code";
  EXPECT_TRUE(right.header("location").empty());
  EXPECT_NE(right.raw_body.find("Too many wrong passwords"), std::string::npos) << right.raw_body;

  // An unknown email locks alike, so a lock does not tell that an email exists.
  TestAccount nobody = owner;
  nobody.email = "nobody-" + uniqueSuffix() + "@example.ca";
  for (int i = 0; i < 5; ++i) client.submit(client.open(), nobody, {{"password", "guess"}});
  EXPECT_NE(client.submit(client.open(), nobody).raw_body.find("Too many wrong passwords"),
            std::string::npos);
}

// Item 4, the step-up: a stolen narrow key guessing the owner's password meets a count. Since
// issue 49 that count is the account's keys' (all of them: a key can be made without the
// password), apart from sign-in's: the thief's guesses lock the thief out, not the owner.
TEST(OAuthHardening, WrongStepUpPasswordsLockTheKeysButNotTheOwner) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  nlohmann::json broader = {{"mode", "TEST"},
                            {"permissions", {{"messages", "rwmd"}, {"api_keys", "rwmd"}}}};
  Reply narrow = api.call("POST", "/v1/api-keys", bearer(owner.test_key),
                          {{"mode", "TEST"}, {"permissions", {{"api_keys", "w"}}}});
  ASSERT_EQ(narrow.status, 201) << narrow.raw_body;
  std::string stolen = narrow.body["key"];
  // A second narrow key, as a thief could make with the first (no step-up for less).
  std::string minted = api.call("POST", "/v1/api-keys", bearer(stolen),
                                {{"mode", "TEST"}, {"permissions", {{"api_keys", "w"}}}})
                           .body["key"];
  for (int i = 0; i < 5; ++i) {
    nlohmann::json guess = broader;
    guess["password"] = "guess " + std::to_string(i);
    EXPECT_EQ(api.call("POST", "/v1/api-keys", bearer(stolen), guess).body["code"],
              "PERMISSION_ESCALATION");
  }
  nlohmann::json right = broader;
  right["password"] = owner.password;
  Reply locked = api.call("POST", "/v1/api-keys", bearer(stolen), right);
  EXPECT_EQ(locked.status, 429) << locked.raw_body;
  EXPECT_EQ(locked.body["details"]["reason"], "password_locked");
  EXPECT_FALSE(locked.header("retry-after").empty());
  EXPECT_EQ(locked.body["details"]["scope"], "keys");
  Reply other_key = api.call("POST", "/v1/api-keys", bearer(minted), right);
  EXPECT_EQ(other_key.status, 429) << "every key of the account shares the count";
  // The consent page counts sign-in's wrong passwords, not the keys': the owner gets through.
  OAuthClient client(api);
  EXPECT_EQ(client.submit(client.open(), owner).status, 303);
}

// Item 5: the fetch's error named what answered at an internal address ("Couldn't connect",
// "Server returned nothing", "too large"): one reason for every failure now.
TEST(OAuthHardening, MetadataFetchFailuresAllReadAlike) {
  HttpTestClient api(apiUrl());
  WebhookReceiver closes, large;
  closes.answerWith(ReceiverAnswer::Close);
  large.serveDocument(std::string(size_t{70} * 1024, ' ') + "{}", "no-store");
  std::vector<std::string> urls = {
      "http://127.0.0.1:" + std::to_string(closedLoopbackPort()) + "/",  // nothing listens
      closes.url() + "/client.json",                                     // closes at once
      large.url() + "/client.json",                                      // over 64 KiB
      std::string(apiUrl()) + "/metrics",                                // not a document
  };
  std::string first_body;
  for (const auto& url : urls) {
    SCOPED_TRACE(url);
    Reply page = consentPageFor(api, url);
    EXPECT_EQ(page.status, 400);
    EXPECT_NE(page.raw_body.find("(metadata_document_unusable)"), std::string::npos)
        << page.raw_body;
    for (const char* leak : {"Couldn't connect", "refused", "returned nothing", "Empty reply",
                             "too large", "status 404", "timeout", "timed out"})
      EXPECT_EQ(page.raw_body.find(leak), std::string::npos) << leak << " in " << page.raw_body;
    if (first_body.empty()) first_body = page.raw_body;
    EXPECT_EQ(page.raw_body, first_body);
  }
}

// Item 6: registration took bidi overrides and names that pass for us; a self-registered
// client is shown as unverified on the consent page.
TEST(OAuthHardening, ClientNamesReadAsWrittenAndSelfRegisteredOnesAreUnverified) {
  HttpTestClient api(apiUrl());
  for (const std::string& name :
       {std::string("Claude\u202eppa.lieve"), std::string("Zero\u200bWidth"),
        std::string("Bell\x07"), std::string("SMS Gateway Official Support"),
        std::string("smsgw billing"), std::string("SMS Gatew\u0430y")}) {
    Reply refused = api.call("POST", "/oauth/register", {},
                             {{"client_name", name}, {"redirect_uris", {"http://127.0.0.1:9/cb"}}});
    EXPECT_EQ(refused.status, 400) << name << ": " << refused.raw_body;
    EXPECT_EQ(refused.body["error"], "invalid_client_metadata") << name;
  }
  OAuthClient registered(api, "http://127.0.0.1:9/callback", "Agenda Bot");
  Reply page = registered.open().page;
  ASSERT_EQ(page.status, 200) << page.raw_body;
  EXPECT_NE(page.raw_body.find("id=\"unverified\""), std::string::npos);
  EXPECT_NE(page.raw_body.find("Unverified app"), std::string::npos);

  WebhookReceiver host;
  std::string client_id = host.url();
  host.serveDocument(clientDocument(client_id, "Document App", {"http://127.0.0.1:7/cb"}),
                     "no-store");
  Reply document_page = consentPageFor(api, client_id);
  ASSERT_EQ(document_page.status, 200) << document_page.raw_body;
  EXPECT_EQ(document_page.raw_body.find("id=\"unverified\""), std::string::npos);
  EXPECT_NE(document_page.raw_body.find("identified by the address"), std::string::npos);
}

// Item 7: a document nested 10,000 deep was parsed and echoed into a 20 KB error page.
TEST(OAuthHardening, ADeeplyNestedDocumentIsRefusedWithoutEchoingIt) {
  HttpTestClient api(apiUrl());
  WebhookReceiver host;
  std::string client_id = host.url();
  std::string nested = std::string(10'000, '[') + std::string(10'000, ']');
  host.serveDocument(R"({"client_id":")" + client_id +
                         R"(","redirect_uris":["http://127.0.0.1:7/cb"],"client_name":)" + nested +
                         "}",
                     "no-store");
  Reply page = consentPageFor(api, client_id);
  EXPECT_EQ(page.status, 400);
  EXPECT_LT(page.raw_body.size(), 4096u);
  EXPECT_EQ(page.raw_body.find("[[["), std::string::npos);
  // A value of a document that parses is not echoed either.
  WebhookReceiver other;
  std::string other_id = other.url();
  other.serveDocument(clientDocument(other_id, "Fine", {"javascript:alert('echoed')"}), "no-store");
  Reply refused = consentPageFor(api, other_id);
  EXPECT_EQ(refused.status, 400);
  EXPECT_EQ(refused.raw_body.find("echoed"), std::string::npos) << refused.raw_body;
}
