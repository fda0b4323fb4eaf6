// The HTTP edge: error bodies, languages, framework errors, keep-alive and rate limits.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/support/accounts.h"
#include "tests/support/numbers.h"
#include "tests/support/raw_http.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

void expectErrorBody(const Reply& reply, long status, const std::string& code) {
  EXPECT_EQ(reply.status, status) << reply.raw_body;
  EXPECT_EQ(reply.body["code"], code) << reply.raw_body;
  EXPECT_EQ(reply.body["statusCode"], status);
  EXPECT_TRUE(reply.body["message"].is_string());
  EXPECT_TRUE(reply.body["messageEn"].is_string());
  EXPECT_TRUE(reply.body["messageFr"].is_string());
}

}  // namespace

TEST(HttpEdge, MissingOrInvalidKeysAreUnauthorized) {
  HttpTestClient api(apiUrl());
  expectErrorBody(api.call("GET", "/v1/messages"), 401, "UNAUTHORIZED");
  expectErrorBody(api.call("GET", "/v1/messages", bearer("mk_test_nope")), 401, "UNAUTHORIZED");
  expectErrorBody(
      api.call("GET", "/v1/messages", {{"X-API-Key", "mk_live_" + std::string(32, 'a')}}), 401,
      "UNAUTHORIZED");
}

TEST(HttpEdge, BothKeyHeadersAuthenticate) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  EXPECT_EQ(api.call("GET", "/v1/accounts/me", bearer(account.test_key)).status, 200);
  Reply viaHeader = api.call("GET", "/v1/accounts/me", {{"X-API-Key", account.test_key}});
  EXPECT_EQ(viaHeader.status, 200);
  EXPECT_EQ(viaHeader.body["caller"]["mode"], "TEST");
  EXPECT_TRUE(viaHeader.body["caller"]["oauth_client"].is_null());
}

TEST(HttpEdge, MessageFollowsAcceptLanguage) {
  HttpTestClient api(apiUrl());
  Reply french = api.call("GET", "/v1/messages", {{"Accept-Language", "fr-CA,fr;q=0.9,en;q=0.5"}});
  EXPECT_EQ(french.body["message"], french.body["messageFr"]);
  EXPECT_NE(french.body["messageEn"], french.body["messageFr"]);
  Reply english = api.call("GET", "/v1/messages", {{"Accept-Language", "en-CA"}});
  EXPECT_EQ(english.body["message"], english.body["messageEn"]);
}

TEST(HttpEdge, FrameworkErrorsUseTheSpecBody) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  std::string bad_json = "{\"to\": ";
  expectErrorBody(api.call("POST", "/v1/messages",
                           bearer(account.test_key, {{"Content-Type", "application/json"}}),
                           nullptr, &bad_json),
                  400, "FST_ERR_CTP_INVALID_JSON_BODY");
  std::string text = "hello";
  expectErrorBody(
      api.call("POST", "/v1/messages", bearer(account.test_key, {{"Content-Type", "text/plain"}}),
               nullptr, &text),
      415, "FST_ERR_CTP_INVALID_MEDIA_TYPE");
  std::string huge = "{\"body\":\"" + std::string(size_t{2} * 1024 * 1024, 'a') + "\"}";
  expectErrorBody(
      api.call("POST", "/v1/messages",
               bearer(account.test_key, {{"Content-Type", "application/json"}}), nullptr, &huge),
      413, "FST_ERR_CTP_BODY_TOO_LARGE");
  std::string empty;
  expectErrorBody(
      api.call("POST", "/v1/messages",
               bearer(account.test_key, {{"Content-Type", "application/json"}}), nullptr, &empty),
      400, "FST_ERR_CTP_EMPTY_JSON_BODY");
}

TEST(HttpEdge, ValidationErrorsNameTheField) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Reply reply =
      api.call("POST", "/v1/webhooks", bearer(account.test_key), {{"events", {"message.sent"}}});
  expectErrorBody(reply, 422, "VALIDATION_ERROR");
  EXPECT_EQ(reply.body["details"][0]["field"], "url");
}

TEST(HttpEdge, UnknownRoutesAreNotFound) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  expectErrorBody(api.call("GET", "/v1/nothing-here", bearer(account.test_key)), 404, "NOT_FOUND");
}

TEST(HttpEdge, KeepsConnectionsOpenForHttp11ClientsThatDoNotAsk) {
  HttpTestClient api(apiUrl());
  Reply first = api.call("GET", "/health");
  Reply second = api.call("GET", "/health");
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(first.new_connections, 1);
  EXPECT_EQ(second.new_connections, 0) << "the second request should reuse the first connection";
}

TEST(HttpEdge, EveryAuthenticatedResponseCarriesRateHeaders) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Reply reply = api.call("GET", "/v1/accounts/me", bearer(account.test_key));
  EXPECT_EQ(reply.header("x-ratelimit-limit"), "100");
  EXPECT_FALSE(reply.header("x-ratelimit-remaining").empty());
  EXPECT_FALSE(reply.header("x-ratelimit-reset").empty());
  Reply refused = api.call("GET", "/v1/webhooks/wh_none", bearer(account.test_key));
  EXPECT_EQ(refused.header("x-ratelimit-limit"), "100");
}

TEST(HttpEdge, RequestsOverTheAccountsRateAreRateLimited) {
  // Staff give this account 5 requests a second and 60 arrive in one write. However fast the
  // machine answers, no one-second window lets more than 5 through: the allowed ones are at
  // most 5 for each window the answers spanned, and the rest are refused.
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  ASSERT_EQ(runAdmin("account set-request-rate " + account.id + " --per-second 5").exit_code, 0);
  RawHttpConnection connection(apiUrl());
  constexpr int kRequests = 60;
  std::string burst;
  for (int i = 0; i < kRequests; ++i)
    burst +=
        rawRequest("GET", "/v1/accounts/me", {{"Authorization", "Bearer " + account.test_key}});
  auto started = std::chrono::steady_clock::now();
  connection.send(burst);
  int allowed = 0, limited = 0;
  for (int i = 0; i < kRequests; ++i) {
    auto reply = connection.read();
    ASSERT_TRUE(reply) << "answer " << i;
    EXPECT_EQ(reply->header("x-ratelimit-limit"), "5");
    if (reply->status == 429) {
      limited++;
      EXPECT_EQ(reply->json["code"], "RATE_LIMITED");
      EXPECT_FALSE(reply->header("retry-after").empty());
    } else {
      EXPECT_EQ(reply->status, 200);
      allowed++;
    }
  }
  auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started)
          .count();
  EXPECT_GE(allowed, 5);
  EXPECT_LE(allowed, 5 * (seconds + 2)) << "windows spanned: at most " << seconds + 2;
  EXPECT_EQ(allowed + limited, kRequests);
  // -1 gives the platform's 100 back.
  ASSERT_EQ(runAdmin("account set-request-rate " + account.id + " --per-second -1").exit_code, 0);
  EXPECT_EQ(
      api.call("GET", "/v1/accounts/me", bearer(account.test_key)).header("x-ratelimit-limit"),
      "100");
}

TEST(HttpEdge, MalformedAuthorizationIsUnauthorizedInTheSpecShape) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  const std::string key = account.test_key;
  const Headers malformed[] = {
      {{"Authorization", "Bearer"}},
      {{"Authorization", "Bearer "}},
      {{"Authorization", "bearer" + key}},
      {{"Authorization", "Basic " + key}},
      {{"Authorization", "Bearer " + key + "x"}},
      {{"Authorization", "Bearer " + key.substr(0, key.size() - 1)}},
      {{"Authorization", "Bearer mk_live_"}},
      {{"Authorization", "Bearer mk_test_" + std::string(32, '!')}},
      {{"Authorization", "Bearer mk_prod_" + key.substr(8)}},
      {{"Authorization", "Bearer " + key + " " + key}},
      {{"Authorization", "Bearer \"" + key + "\""}},
      {{"Authorization", "Token " + key}},
      {{"Authorization", std::string(4000, 'A')}},
      {{"Authorization", "Bearer " + std::string(4000, 'a')}},
      {{"X-API-Key", ""}},
      {{"X-API-Key", "Bearer " + key}},
      {{"X-API-Key", "mk_test_"}},
      {{"X-API-Key", "%6Dk_test_"}},
  };
  for (const auto& headers : malformed) {
    Reply reply = api.call("GET", "/v1/accounts/me", headers);
    SCOPED_TRACE(headers[0].first + ": " + headers[0].second.substr(0, 40));
    expectErrorBody(reply, 401, "UNAUTHORIZED");
  }
}

// Issue 49, finding 6: HEAD answered 405 on GET routes, the dashboard's included. HEAD is GET
// without the body: the same status and headers, Content-Length the GET's (RFC 9110 9.3.2).
TEST(HttpEdge, HeadAnswersEveryGetRouteWithItsHeadersAndNoBody) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  RawHttpConnection connection(apiUrl());
  auto exchange = [&](const std::string& method, const std::string& target, bool authed) {
    std::map<std::string, std::string> headers;
    if (authed) headers["Authorization"] = "Bearer " + account.test_key;
    EXPECT_TRUE(connection.send(rawRequest(method, target, headers)));
    auto response = connection.read(std::chrono::seconds(20), method == "HEAD");
    EXPECT_TRUE(response.has_value()) << method << " " << target;
    return response.value_or(RawResponse{});
  };
  for (const auto& [target, authed] :
       std::vector<std::pair<std::string, bool>>{{"/dashboard", false},
                                                 {"/health", false},
                                                 {"/v1/pricing", true},
                                                 {"/v1/accounts/" + account.id, true}}) {
    RawResponse get = exchange("GET", target, authed);
    RawResponse head = exchange("HEAD", target, authed);
    EXPECT_EQ(head.status, get.status) << target;
    EXPECT_EQ(head.header("content-type"), get.header("content-type")) << target;
    EXPECT_EQ(head.header("content-length"), std::to_string(get.body.size())) << target;
    EXPECT_TRUE(head.body.empty()) << target;
  }
  // The next request on the connection is read as a request: no body was left behind.
  EXPECT_EQ(exchange("GET", "/health", false).status, 200);
  RawResponse unauthenticated = exchange("HEAD", "/v1/messages", false);
  EXPECT_EQ(unauthenticated.status, 401);
  RawResponse post_only = exchange("HEAD", "/v1/accounts", false);
  EXPECT_EQ(post_only.status, 405);
  EXPECT_EQ(post_only.header("allow"), "POST");
  RawResponse put = exchange("PUT", "/v1/pricing", true);
  EXPECT_EQ(put.status, 405);
  EXPECT_EQ(put.header("allow"), "GET, HEAD");
}
