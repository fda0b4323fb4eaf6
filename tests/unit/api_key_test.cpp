#include "domain/api_key.h"

#include <gtest/gtest.h>

#include <set>

#include "domain/webhook_signature.h"

using namespace smsgw;

TEST(ApiKey, GeneratedKeysCarryTheirModePrefix) {
  auto live = generateApiKey(KeyMode::Live);
  auto test = generateApiKey(KeyMode::Test);
  EXPECT_TRUE(live.secret.starts_with("mk_live_"));
  EXPECT_TRUE(test.secret.starts_with("mk_test_"));
  EXPECT_EQ(parseApiKey(live.secret), KeyMode::Live);
  EXPECT_EQ(parseApiKey(test.secret), KeyMode::Test);
}

TEST(ApiKey, StoresOnlyAHashThatDoesNotRevealTheSecret) {
  auto key = generateApiKey(KeyMode::Live);
  EXPECT_EQ(key.hash, hashApiKey(key.secret));
  EXPECT_EQ(key.hash.size(), 64u);
  EXPECT_EQ(key.hash.find(key.secret.substr(8)), std::string::npos);
  EXPECT_TRUE(key.secret.starts_with(key.key_prefix));
  EXPECT_LT(key.key_prefix.size(), key.secret.size() / 2);
}

TEST(ApiKey, SecretsAreUnique) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i)
    EXPECT_TRUE(seen.insert(generateApiKey(KeyMode::Test).secret).second);
}

TEST(ApiKey, RefusesMalformedSecrets) {
  auto good = generateApiKey(KeyMode::Live).secret;
  EXPECT_FALSE(parseApiKey(""));
  EXPECT_FALSE(parseApiKey("mk_live_"));
  EXPECT_FALSE(parseApiKey(good.substr(0, good.size() - 1)));
  EXPECT_FALSE(parseApiKey(good + "x"));
  EXPECT_FALSE(parseApiKey("sk_live_" + good.substr(8)));
  std::string bad = good;
  bad[10] = '-';
  EXPECT_FALSE(parseApiKey(bad));
}

TEST(ApiKey, ReadsBearerBeforeXApiKey) {
  EXPECT_EQ(presentedApiKey("Bearer abc", "def"), "abc");
  EXPECT_EQ(presentedApiKey("bearer   abc  ", std::nullopt), "abc");
  EXPECT_EQ(presentedApiKey(std::nullopt, " def "), "def");
  EXPECT_EQ(presentedApiKey("Basic Zm9v", "def"), "def");
  EXPECT_FALSE(presentedApiKey("Bearer ", std::nullopt));
  EXPECT_FALSE(presentedApiKey(std::nullopt, std::nullopt));
}

TEST(WebhookSignature, SignsEventIdTimestampAndBody) {
  std::string secret = newWebhookSecret();
  ASSERT_TRUE(secret.starts_with("whsec_"));
  std::string sig = signWebhook(secret, "evt-1", 1700000000, R"({"a":1})");
  EXPECT_TRUE(sig.starts_with("v1,"));
  EXPECT_TRUE(verifyWebhook(secret, "evt-1", 1700000000, R"({"a":1})", sig));
  EXPECT_FALSE(verifyWebhook(secret, "evt-1", 1700000001, R"({"a":1})", sig));
  EXPECT_FALSE(verifyWebhook(secret, "evt-2", 1700000000, R"({"a":1})", sig));
  EXPECT_FALSE(verifyWebhook(secret, "evt-1", 1700000000, R"({"a":2})", sig));
  EXPECT_FALSE(verifyWebhook(newWebhookSecret(), "evt-1", 1700000000, R"({"a":1})", sig));
  EXPECT_TRUE(verifyWebhook(secret, "evt-1", 1700000000, R"({"a":1})", "v1,old " + sig));
}

TEST(WebhookSignature, MatchesTheStandardWebhooksReferenceVector) {
  // From the Standard Webhooks specification's test vectors.
  std::string secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  std::string body = R"({"test": 2432232314})";
  EXPECT_EQ(signWebhook(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}
