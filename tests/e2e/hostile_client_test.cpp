// The API against a hostile or broken client (issue 19): bodies built to crash or burn CPU,
// malformed framing, pipelining, stalls, bytes that are not text, and one account's slow work
// beside another's quick reads. Every refusal must be the spec's error body.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <random>
#include <thread>

#include "tests/support/accounts.h"
#include "tests/support/numbers.h"
#include "tests/support/raw_http.h"
#include "tests/support/test_env.h"
#include "tests/support/webhooks.h"

using namespace smsgw::testing;
using namespace std::chrono_literals;

namespace {

void expectSpecError(const RawResponse& response, int status, const std::string& code) {
  EXPECT_EQ(response.status, status) << response.body;
  EXPECT_EQ(response.json.value("code", ""), code) << response.body;
  EXPECT_EQ(response.json.value("statusCode", 0), status);
  EXPECT_TRUE(response.json.contains("messageEn") && response.json.contains("messageFr"));
}

void expectSpecError(const Reply& reply, int status, const std::string& code) {
  EXPECT_EQ(reply.status, status) << reply.raw_body;
  EXPECT_EQ(reply.body.value("code", ""), code) << reply.raw_body;
  EXPECT_EQ(reply.body.value("statusCode", 0), status);
  EXPECT_TRUE(reply.body.contains("messageEn") && reply.body.contains("messageFr"));
}

RawResponse exchange(const std::string& bytes) {
  RawHttpConnection connection(apiUrl());
  connection.send(bytes);
  auto response = connection.read();
  EXPECT_TRUE(response) << "no answer to: " << bytes.substr(0, 80);
  return response.value_or(RawResponse{});
}

std::string nested(int depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

// A loopback address of this test's own (127.0.0.2-254), so that per-address limits it meets
// are its own.
std::string ownLoopbackAddress() {
  std::random_device seed;
  return "127.0.0." + std::to_string(2 + seed() % 253);
}

}  // namespace

TEST(HostileClient, DeeplyNestedJsonIsRefusedAndTheApiLivesOn) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  // The crash of issue 19: an unknown event name 100,000 arrays deep, about 200 KB.
  std::string body = R"({"url":"http://127.0.0.1:9/x","events":[)" + nested(100'000) + "]}";
  Headers json = bearer(account.test_key, {{"Content-Type", "application/json"}});
  Reply created = api.call("POST", "/v1/webhooks", json, nullptr, &body);
  expectSpecError(created, 400, "FST_ERR_CTP_INVALID_JSON_BODY");
  EXPECT_EQ(created.body["details"]["reason"], "too_deep");
  expectSpecError(api.call("PATCH", "/v1/webhooks/wh_x", json, nullptr, &body), 400,
                  "FST_ERR_CTP_INVALID_JSON_BODY");
  std::string unknown = R"({"url":"http://127.0.0.1:9/x","events":[[["x"]]]})";
  Reply refused = api.call("POST", "/v1/webhooks", json, nullptr, &unknown);
  expectSpecError(refused, 422, "VALIDATION_ERROR");
  EXPECT_EQ(refused.raw_body.find("[[\"x\"]]"), std::string::npos) << "the value is not echoed";
  EXPECT_EQ(api.call("GET", "/health").status, 200);
}

TEST(HostileClient, ABodyDeclaredTooLargeIsRefusedBeforeItIsSentAndTheConnectionCloses) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  RawHttpConnection connection(apiUrl());
  connection.send(rawRequest("POST", "/v1/messages",
                             {{"Authorization", "Bearer " + account.test_key},
                              {"Content-Type", "application/json"},
                              {"Content-Length", std::to_string(20 * 1024 * 1024)}}));
  auto response = connection.read();  // not one byte of the 20 MB was sent
  ASSERT_TRUE(response);
  expectSpecError(*response, 413, "FST_ERR_CTP_BODY_TOO_LARGE");
  EXPECT_EQ(response->header("connection"), "close");
  EXPECT_TRUE(connection.closesWithin(20s));

  // Sent in full, 6 MiB is refused the same way (never as an empty body).
  std::string six = "{\"body\":\"" + std::string(size_t{6} * 1024 * 1024, 'a') + "\"}";
  expectSpecError(
      api.call("POST", "/v1/messages",
               bearer(account.test_key, {{"Content-Type", "application/json"}}), nullptr, &six),
      413, "FST_ERR_CTP_BODY_TOO_LARGE");
  EXPECT_EQ(api.call("GET", "/health").status, 200);
}

TEST(HostileClient, MalformedFramingIsRefusedInTheSpecShapeAndTheConnectionCloses) {
  const std::string malformed[] = {
      "POST /v1/accounts HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
      "POST /v1/accounts HTTP/1.1\r\nContent-Length: two\r\n\r\n{}",
      "GARBAGE\r\n\r\n",
      "GET /health HTTP/1.1\r\nNo colon here\r\n\r\n",
      "GET /health HTTP/1.1\r\nX-Big: " + std::string(size_t{64} * 1024, 'a') + "\r\n\r\n",
  };
  for (const auto& bytes : malformed) {
    SCOPED_TRACE(bytes.substr(0, 60));
    RawHttpConnection connection(apiUrl());
    connection.send(bytes);
    auto response = connection.read();
    ASSERT_TRUE(response);
    int status = response->status;
    expectSpecError(*response, status,
                    status == 431 ? "FST_ERR_HEADERS_TOO_LARGE" : "FST_ERR_BAD_REQUEST");
    EXPECT_TRUE(status == 400 || status == 431) << status;
    EXPECT_TRUE(connection.closesWithin(20s));
  }
}

TEST(HostileClient, PipelinedRequestsAreAllAnsweredInOrder) {
  RawHttpConnection connection(apiUrl());
  connection.send(rawRequest("GET", "/health", {{"X-Request-Id", "first"}}) +
                  rawRequest("GET", "/nowhere", {{"X-Request-Id", "second"}}) +
                  rawRequest("GET", "/health", {{"X-Request-Id", "third"}}));
  const std::pair<int, const char*> expected[] = {{200, "first"}, {404, "second"}, {200, "third"}};
  for (const auto& [status, id] : expected) {
    auto response = connection.read();
    ASSERT_TRUE(response) << id;
    EXPECT_EQ(response->status, status);
    EXPECT_EQ(response->header("x-request-id"), id);
  }
}

TEST(HostileClient, ARequestPipelinedBehindASlowOneIsAnsweredInOrderOrTheConnectionCloses) {
  // Signup runs on the slow lane; the read behind it must never overtake its answer, and is
  // either answered after it or left to the client to send again once the connection closes.
  RawHttpConnection connection(apiUrl(), ownLoopbackAddress());
  connection.send(rawRequest("POST", "/v1/accounts", {{"Content-Type", "application/json"}}, "{}") +
                  rawRequest("GET", "/health"));
  auto first = connection.read();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 422) << "the slow request's answer comes first";
  auto second = connection.read(std::chrono::seconds(20));
  if (second) {
    EXPECT_EQ(second->status, 200);
  } else {
    EXPECT_TRUE(connection.closesWithin(std::chrono::seconds(20)))
        << "not answered, so the connection must have closed";
  }
}

TEST(HostileClient, ConnectionCloseAndHttp10ClientsGetTheirAnswerThenTheEnd) {
  RawHttpConnection closing(apiUrl());
  closing.send(rawRequest("GET", "/health", {{"Connection", "close"}}));
  auto answer = closing.read();
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 200);
  EXPECT_TRUE(closing.closesWithin(20s));

  RawHttpConnection old(apiUrl());  // as ab sends it
  old.send("GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
  auto plain = old.read();
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->status, 200);
  EXPECT_TRUE(old.closesWithin(20s)) << "an HTTP/1.0 client reads until the connection ends";
}

TEST(HostileClient, AClientThatStopsMidRequestIsDropped) {
  // ops/test runs the API with 2 s for headers and 4 s for a body.
  RawHttpConnection headers(apiUrl());
  headers.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a");
  EXPECT_TRUE(headers.closesWithin(60s));

  RawHttpConnection body(apiUrl());
  body.send(rawRequest("POST", "/v1/accounts",
                       {{"Content-Type", "application/json"}, {"Content-Length", "100"}}) +
            "{\"name\":");
  EXPECT_TRUE(body.closesWithin(60s));
}

TEST(HostileClient, BytesThatAreNotTextNeverReachARoute) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  std::map<std::string, std::string> auth = {{"Authorization", "Bearer " + account.test_key}};
  expectSpecError(exchange(rawRequest("GET", "/v1/messages/%ff", auth)), 400, "FST_ERR_BAD_URL");
  expectSpecError(exchange(rawRequest("GET", "/v1/messages?to=%ff", auth)), 400, "FST_ERR_BAD_URL");
  expectSpecError(exchange(rawRequest("GET", "/v1/messages/\xc3\x28", auth)), 400,
                  "FST_ERR_BAD_URL");

  // A request id that cannot be echoed: one answer, and the connection still serves.
  RawHttpConnection connection(apiUrl());
  auto with_id = auth;
  with_id["X-Request-Id"] = "abc\xff";
  connection.send(rawRequest("GET", "/v1/accounts/me", with_id));
  auto refused = connection.read();
  ASSERT_TRUE(refused);
  expectSpecError(*refused, 400, "FST_ERR_BAD_REQUEST");
  EXPECT_EQ(refused->json["details"]["header"], "x-request-id");
  connection.send(rawRequest("GET", "/v1/accounts/me", auth));
  auto next = connection.read();
  ASSERT_TRUE(next) << "a second answer to the first request would come here";
  EXPECT_EQ(next->status, 200);

  std::string csv = "phone_number,consent_type\n+1514555\xff\x30\x31\x32,express\n";
  auto batch = auth;
  batch["Content-Type"] = "text/csv";
  expectSpecError(
      exchange(rawRequest("POST", "/v1/compliance/consent-batches?attested=true", batch, csv)), 422,
      "VALIDATION_ERROR");
}

TEST(HostileClient, ANulCharacterInAnyStringIsRefused) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Headers json = bearer(account.test_key, {{"Content-Type", "application/json"}});
  std::string send =
      R"({"from":"+14165550100","to":"+14162220124","body":"hi\u0000there","skip_consent_check":true})";
  Reply sent = api.call("POST", "/v1/messages", json, nullptr, &send);
  expectSpecError(sent, 422, "VALIDATION_ERROR");
  EXPECT_EQ(sent.body["details"][0]["field"], "body");
  std::string webhook = R"({"url":"http://127.0.0.1:9/x\u0000.evil","events":["message.sent"]})";
  Reply hooked = api.call("POST", "/v1/webhooks", json, nullptr, &webhook);
  expectSpecError(hooked, 422, "VALIDATION_ERROR");
  EXPECT_EQ(hooked.body["details"][0]["field"], "url");
}

TEST(HostileClient, AWrongMethodOnAKnownPathAnswers405WithAllow) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  Reply reply = api.call("DELETE", "/v1/messages", bearer(account.test_key));
  expectSpecError(reply, 405, "METHOD_NOT_ALLOWED");
  EXPECT_NE(reply.header("allow").find("GET"), std::string::npos);
  EXPECT_NE(reply.header("allow").find("POST"), std::string::npos);
}

TEST(HostileClient, LengthLimitsCountCharactersNotBytes) {
  HttpTestClient api(apiUrl());
  std::string accents;
  for (int i = 0; i < 150; ++i) accents += "é";  // 300 bytes, 150 of the 200 characters allowed
  Reply fits = api.call("POST", "/v1/accounts", {},
                        {{"name", accents},
                         {"email", "chars+" + uniqueSuffix() + "@example.ca"},
                         {"password", "a long passphrase"},
                         {"accept_terms", true}});
  EXPECT_EQ(fits.status, 201) << fits.raw_body;
  EXPECT_EQ(fits.body["account"]["name"], accents);
  Reply over = api.call("POST", "/v1/accounts", {},
                        {{"name", accents + accents},
                         {"email", "chars+" + uniqueSuffix() + "@example.ca"},
                         {"password", "a long passphrase"},
                         {"accept_terms", true}});
  expectSpecError(over, 422, "VALIDATION_ERROR");
}

TEST(HostileClient, ConcurrentTopUpsWithOneIdempotencyKeyCreditOnce) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUpAndFund(api, 1000);
  std::string key = "race-" + uniqueSuffix();
  std::vector<std::future<Reply>> racers;
  racers.reserve(4);
  for (int i = 0; i < 4; ++i) {  // within the account's 4 slow requests in flight
    racers.push_back(std::async(std::launch::async, [&] {
      HttpTestClient client(apiUrl());
      return client.call("POST", "/v1/accounts/" + account.id + "/top-ups",
                         bearer(account.live_key, {{"Idempotency-Key", key}}),
                         {{"amount_cents", 700}, {"payment_token", "tok_sandbox_ok"}});
    }));
  }
  int created = 0;
  std::set<std::string> ids;
  for (auto& racer : racers) {
    Reply reply = racer.get();
    if (reply.status == 201) {
      created++;
      ids.insert(reply.body["id"].get<std::string>());
    } else {
      expectSpecError(reply, 409, "CONFLICT");  // the first is still with the provider
    }
  }
  EXPECT_GE(created, 1);
  EXPECT_EQ(ids.size(), 1u) << "every 201 is the one top-up";
  Reply account_doc = api.call("GET", "/v1/accounts/" + account.id, bearer(account.live_key));
  EXPECT_EQ(account_doc.body["account"]["balance_cents"], 1700);
}

TEST(HostileClient, SignupsAreLimitedPerClientAddress) {
  std::string address = ownLoopbackAddress();
  RawHttpConnection connection(apiUrl(), address);
  std::map<std::string, std::string> json = {{"Content-Type", "application/json"}};
  std::optional<RawResponse> limited;
  // ops/test allows 600 a minute; windows are whole minutes, so one may roll over midway.
  for (int i = 0; i < 1300 && !limited; ++i) {
    ASSERT_TRUE(connection.send(rawRequest("POST", "/v1/accounts", json, "{}")));
    auto response = connection.read();
    ASSERT_TRUE(response);
    if (response->status == 429)
      limited = response;
    else
      EXPECT_EQ(response->status, 422) << "a signup without fields is refused as invalid";
  }
  ASSERT_TRUE(limited) << "never limited";
  expectSpecError(*limited, 429, "RATE_LIMITED");
  EXPECT_FALSE(limited->header("retry-after").empty());
  // Another address is not held back by this one.
  RawHttpConnection other(apiUrl(), address == "127.0.0.1" ? "127.0.0.2" : "127.0.0.1");
  other.send(rawRequest("POST", "/v1/accounts", json, "{}"));
  auto fresh = other.read();
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->status, 422);
}

TEST(HostileClient, OneAccountsSlowWorkDoesNotHoldUpAnothersRequests) {
  // ops/test lets an account run 4 slow requests at once with 2 more waiting.
  HttpTestClient api(apiUrl());
  TestAccount slow = signUp(api);
  TestAccount quick = signUp(api);
  WebhookReceiver receiver;
  receiver.answerWith(ReceiverAnswer::Status, 500);
  auto replays = deadLetterReplayPaths(api, slow, receiver, 8);
  ASSERT_EQ(replays.size(), 8u);
  size_t failed_attempts = receiver.received();
  receiver.answerWith(ReceiverAnswer::Hang);  // a replay now waits the full webhook timeout

  std::atomic<int> finished_admitted{0};  // answered otherwise than by the cap's 429
  std::vector<std::future<Reply>> waiting;
  waiting.reserve(replays.size());
  for (const auto& path : replays) {
    waiting.push_back(std::async(std::launch::async, [&, path] {
      HttpTestClient client(apiUrl());
      Reply reply = client.call("POST", path, bearer(slow.test_key));
      if (reply.status != 429) finished_admitted++;
      return reply;
    }));
  }
  // The 4 running replays reach the endpoint; the others wait or are refused.
  receiver.waitFor(failed_attempts + 4, 30s);

  HttpTestClient other(apiUrl());
  for (int i = 0; i < 20; ++i) {
    Reply read = other.call("GET", "/v1/accounts/me", bearer(quick.test_key));
    EXPECT_EQ(read.status, 200);
  }
  int admitted_done_early = finished_admitted.load();
  receiver.answerWith(ReceiverAnswer::Ok);  // the 2 waiting ones will be accepted when they run

  int capped = 0, timed_out = 0, replayed = 0;
  for (auto& future : waiting) {
    Reply reply = future.get();
    if (reply.status == 429) {
      capped++;
      EXPECT_EQ(reply.body["details"]["reason"], "too_many_slow_requests");
      EXPECT_FALSE(reply.header("retry-after").empty());
    } else if (reply.status == 200) {
      replayed++;
    } else {
      timed_out++;
      EXPECT_EQ(reply.body["code"], "WEBHOOK_REPLAY_FAILED") << reply.raw_body;
    }
  }
  EXPECT_EQ(capped, 2) << "4 running and 2 waiting: the last 2 are refused at once";
  EXPECT_EQ(admitted_done_early, 0)
      << "the other account's 20 reads were answered while all 6 admitted replays still waited";
  EXPECT_EQ(timed_out, 4);
  EXPECT_EQ(replayed, 2) << "the waiting ones ran when threads of the account came free";
}

namespace {

// A request of the API's, mutated inside its framing: the method, path, query and JSON body
// change, the Content-Length is always right, so every request reaches a route.
struct LiveTemplate {
  std::string method;
  std::string path;
  std::string body;
};

std::string mutateText(std::string text, std::mt19937& random) {
  static const std::vector<std::string> kTokens = {"%ff",
                                                   "%00",
                                                   "%2F",
                                                   "\\u0000",
                                                   "\\ud800",
                                                   "\xc3\xa9",
                                                   "😀",
                                                   "[[[[",
                                                   "]]",
                                                   "{",
                                                   "}",
                                                   "\"",
                                                   ",",
                                                   ":",
                                                   "null",
                                                   "true",
                                                   "-1",
                                                   "1e308",
                                                   "99999999999999999999",
                                                   "0.5",
                                                   "+1",
                                                   std::string(300, 'a'),
                                                   "\xff",
                                                   "'; DROP TABLE accounts;--",
                                                   "../",
                                                   "?x=",
                                                   "&"};
  auto below = [&](size_t n) {
    return n ? std::uniform_int_distribution<size_t>(0, n - 1)(random) : 0;
  };
  int rounds = 1 + static_cast<int>(below(3));
  for (int i = 0; i < rounds; ++i) {
    switch (below(4)) {
      case 0:
        if (!text.empty()) text[below(text.size())] = static_cast<char>(below(256));
        break;
      case 1:
        text.insert(below(text.size() + 1), kTokens[below(kTokens.size())]);
        break;
      case 2:
        if (!text.empty()) {
          size_t at = below(text.size());
          text.erase(at, below(8) + 1);
        }
        break;
      default: {
        if (text.empty()) break;
        size_t at = below(text.size());
        std::string run = text.substr(at, below(16) + 1);
        text.insert(at, run + run);
      }
    }
  }
  return text;
}

}  // namespace

TEST(HostileClient, MutatedRequestsToEveryKindOfRouteAreAnsweredInTheSpecShape) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUp(api);
  // The mutants come as fast as the API answers: the account's own rate keeps the 100 a
  // second out of it, so what succeeds depends on the mutations alone (a fixed seed).
  ASSERT_EQ(runAdmin("account set-request-rate " + account.id + " --per-second 1000000").exit_code,
            0);
  const std::string id = account.id;
  const std::vector<LiveTemplate> templates = {
      {"POST", "/v1/messages",
       R"({"from":"+14165550100","to":"+14162220124","body":"Allô","skip_consent_check":true})"},
      {"GET", "/v1/messages?page=1&limit=5&status=QUEUED&to=%2B14162220124", ""},
      {"GET", "/v1/messages/msg_unknown", ""},
      {"POST", "/v1/compliance/consents",
       R"({"phone_number":"+14162220124","consent_type":"express","source_description":"web form"})"},
      {"GET", "/v1/compliance/consents/check?phone_number=%2B14162220124", ""},
      {"POST", "/v1/compliance/opt-outs",
       R"({"phone_number":"+14162220125","from_number":"+14165550100"})"},
      {"POST", "/v1/compliance/consent-batches",
       R"({"attested":true,"defaults":{"consent_type":"express","source_description":"x"},"rows":[{"phone_number":"+14162220126"}]})"},
      {"POST", "/v1/webhooks", R"({"url":"http://127.0.0.1:9/hook","events":["message.sent"]})"},
      {"PATCH", "/v1/accounts/" + id, R"({"name":"Nouveau"})"},
      {"GET", "/v1/accounts/" + id + "/transactions?limit=2", ""},
      {"POST", "/v1/api-keys", R"({"label":"k","mode":"TEST","permissions":{"messages":"r"}})"},
      {"GET", "/v1/phone-numbers/area-codes", ""},
      {"POST", "/v1/compliance/opt-in-confirmations",
       R"({"to":"+14162220127","from":"+18335550100","brand_name":"B","language":"fr"})"},
  };
  std::mt19937 random(20261123);
  auto connection = std::make_unique<RawHttpConnection>(apiUrl());
  int answered = 0, server_errors = 0, dropped = 0, succeeded = 0;
  for (int i = 0; i < 1500; ++i) {
    const auto& base = templates[i % templates.size()];
    std::string path = random() % 2 ? mutateText(base.path, random) : base.path;
    std::string body =
        base.body.empty() || random() % 4 == 0 ? base.body : mutateText(base.body, random);
    if (path.empty() || path[0] != '/') path = "/" + path;
    // Bytes that would end the request line are not a mutation of the route.
    for (char& c : path) {
      if (c == ' ' || c == '\r' || c == '\n') c = '_';
    }
    std::map<std::string, std::string> headers = {{"Authorization", "Bearer " + account.test_key}};
    if (!body.empty()) headers["Content-Type"] = "application/json";
    if (!connection->send(rawRequest(base.method, path, headers, body))) {
      connection = std::make_unique<RawHttpConnection>(apiUrl());
      continue;
    }
    auto response = connection->read(std::chrono::seconds(30));
    if (!response) {  // refused and closed, as for a malformed URL: a new connection
      dropped++;
      connection = std::make_unique<RawHttpConnection>(apiUrl());
      continue;
    }
    answered++;
    if (response->status < 300) succeeded++;
    SCOPED_TRACE(base.method + " " + path + " " + body.substr(0, 200));
    if (response->status >= 400) {
      expectSpecError(*response, response->status, response->json.value("code", "?"));
    } else if (response->status != 204) {
      EXPECT_FALSE(response->json.is_discarded()) << response->body.substr(0, 200);
    }
    if (response->status == 500) server_errors++;
    if (response->header("connection") == "close")
      connection = std::make_unique<RawHttpConnection>(apiUrl());
  }
  std::printf(
      "live mutation: %d answered (%d succeeded), %d closed without an answer, %d server "
      "errors\n",
      answered, succeeded, dropped, server_errors);
  EXPECT_EQ(server_errors, 0) << "a 500 is a request the API did not expect";
  EXPECT_GT(answered, 1400);
  EXPECT_GT(succeeded, 100) << "the mutants still reach the routes' work, not only refusals";
  EXPECT_EQ(api.call("GET", "/health").status, 200);
}
