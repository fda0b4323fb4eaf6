// POST /v1/messages may start from a caller the API kept from an earlier request with the same
// key (api/http/caller_cache.h). These tests change the key or the account behind the API's
// back, after the key's caller was kept, and expect the next send to answer exactly as a fresh
// lookup would: a revoked key 401 at once on every path through the send, a suspended account
// 403, a reinstated one sending again; and nothing charged or written by the refused sends.
#include <gtest/gtest.h>

#include "tests/support/numbers.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

class CachedCaller : public ::testing::Test {
 protected:
  void SetUp() override {
    account = readyToBuy(api, 1000);
    number = buyNumber(api, account, "613")["phone_number"];
    subscriber = withConsent(randomSubscriber("613"));
  }

  std::string withConsent(const std::string& phone) { return withLiveConsent(api, account, phone); }
  Reply send(const std::string& key, const std::string& to, const std::string& body,
             const std::string& idempotency_key = "") {
    std::vector<std::pair<std::string, std::string>> headers = bearer(key);
    if (!idempotency_key.empty()) headers.emplace_back("Idempotency-Key", idempotency_key);
    return api.call("POST", "/v1/messages", headers,
                    {{"from", number}, {"to", to}, {"body", body}});
  }
  // A second LIVE key whose caller the API now keeps: it has just sent a message.
  std::string keptKey(const std::string& idempotency_key = "") {
    Reply created = api.call("POST", "/v1/api-keys", bearer(account.live_key), {{"mode", "LIVE"}});
    EXPECT_EQ(created.status, 201) << created.raw_body;
    std::string key = created.body["key"];
    key_ids[key] = created.body["id"];
    Reply sent = send(key, subscriber, "first", idempotency_key);
    EXPECT_EQ(sent.status, 201) << sent.raw_body;
    return key;
  }
  void revoke(const std::string& key) {
    ASSERT_EQ(api.call("DELETE", "/v1/api-keys/" + key_ids[key], bearer(account.live_key)).status,
              204);
  }
  long long messageCount() {
    return api.call("GET", "/v1/messages?limit=1", bearer(account.live_key)).body["meta"]["total"];
  }
  void expectRevoked(const Reply& reply) {
    EXPECT_EQ(reply.status, 401) << reply.raw_body;
    EXPECT_EQ(reply.body["code"], "API_KEY_REVOKED");
  }

  HttpTestClient api{apiUrl()};
  TestAccount account;
  std::string number;
  std::string subscriber;
  std::map<std::string, std::string> key_ids;
};

}  // namespace

TEST_F(CachedCaller, ARevokedKeyCannotSendTheMomentItIsRevoked) {
  std::string key = keptKey();
  revoke(key);
  long long balance = balanceOf(api, account), messages = messageCount();
  expectRevoked(send(key, subscriber, "after revocation"));
  expectRevoked(send(key, subscriber, "and again"));
  EXPECT_EQ(balanceOf(api, account), balance) << "nothing charged";
  EXPECT_EQ(messageCount(), messages) << "no message written";
}

TEST_F(CachedCaller, ARevokedKeyIsRefusedBeforeItsBadInputIsJudged) {
  std::string key = keptKey();
  revoke(key);
  Reply reply = api.call("POST", "/v1/messages", bearer(key), {{"from", number}, {"to", "12"}});
  expectRevoked(reply);
}

TEST_F(CachedCaller, ARevokedKeyCannotReplayItsIdempotencyKey) {
  std::string key = keptKey("order-77");
  revoke(key);
  expectRevoked(send(key, subscriber, "first", "order-77"));
  Reply replay = send(account.live_key, subscriber, "first", "order-77");
  EXPECT_EQ(replay.status, 201) << "a live key of the account still replays: " << replay.raw_body;
}

TEST_F(CachedCaller, ARevokedKeyIsRefusedOnADestinationNotYetLookedUp) {
  std::string key = keptKey();
  revoke(key);
  long long balance = balanceOf(api, account);
  expectRevoked(send(key, withConsent(randomSubscriber("613")), "to a new number"));
  EXPECT_EQ(balanceOf(api, account), balance);
}

TEST_F(CachedCaller, ASuspendedAccountIsRefusedAtOnceAndSendsWhenReinstated) {
  std::string key = keptKey();
  long long messages = messageCount();
  ASSERT_EQ(runAdmin("account suspend " + account.id + " --reason 'chargeback'").exit_code, 0);
  Reply refused = send(key, subscriber, "while suspended");
  EXPECT_EQ(refused.status, 403) << refused.raw_body;
  EXPECT_EQ(refused.body["details"]["reason"], "account_suspended");
  ASSERT_EQ(runAdmin("account reinstate " + account.id).exit_code, 0);
  EXPECT_EQ(messageCount(), messages);
  // The API now keeps the suspended caller: the send must not believe it.
  Reply sent = send(key, subscriber, "reinstated");
  EXPECT_EQ(sent.status, 201) << sent.raw_body;
}
