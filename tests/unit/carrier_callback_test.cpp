// Telnyx's webhook signatures: Ed25519 over "{timestamp}|{raw body}", base64 headers, the
// account's public key in base64, a replay window.
#include "domain/carrier_callback.h"

#include <gtest/gtest.h>

#include <vector>

#include "domain/crypto.h"
#include "domain/ed25519.h"

using namespace smsgw;

namespace {

constexpr long long kNow = 1795700000;
const std::string kBody =
    R"({"data":{"event_type":"message.finalized","id":"b301ed3f","payload":{"to":[]}}})";

class TelnyxSignature : public ::testing::Test {
 protected:
  crypto::Ed25519KeyPair keys_ = crypto::newEd25519KeyPair();
  std::string public_key_ = crypto::base64(keys_.public_key);
};

}  // namespace

TEST_F(TelnyxSignature, AHeaderSignedByTheAccountsKeyOverTimestampBarBodyVerifies) {
  std::string signature = signTelnyxWebhook(keys_.private_key, kNow, kBody);
  EXPECT_EQ(crypto::base64Decode(signature).size(), 64u);
  EXPECT_TRUE(crypto::ed25519Verify(keys_.public_key, std::to_string(kNow) + "|" + kBody,
                                    crypto::base64Decode(signature)));
  EXPECT_TRUE(verifyTelnyxWebhook(public_key_, std::to_string(kNow), signature, kBody, kNow));
  EXPECT_TRUE(verifyTelnyxWebhook(public_key_, std::to_string(kNow), signature, kBody, kNow + 300));
}

TEST_F(TelnyxSignature, AnAlteredBodyTimestampOrAnotherKeyIsRefused) {
  std::string signature = signTelnyxWebhook(keys_.private_key, kNow, kBody);
  EXPECT_FALSE(
      verifyTelnyxWebhook(public_key_, std::to_string(kNow), signature, kBody + " ", kNow));
  EXPECT_FALSE(verifyTelnyxWebhook(public_key_, std::to_string(kNow + 1), signature, kBody, kNow));
  std::string other = crypto::base64(crypto::newEd25519KeyPair().public_key);
  EXPECT_FALSE(verifyTelnyxWebhook(other, std::to_string(kNow), signature, kBody, kNow));
  // A signature over another joining of the same parts (our old HMAC's "{timestamp}.{body}").
  std::string dotted =
      crypto::base64(crypto::ed25519Sign(keys_.private_key, std::to_string(kNow) + "." + kBody));
  EXPECT_FALSE(verifyTelnyxWebhook(public_key_, std::to_string(kNow), dotted, kBody, kNow));
}

TEST_F(TelnyxSignature, OutsideTheReplayWindowIsRefusedBothWays) {
  for (long long signed_at : {kNow - 301, kNow + 301}) {
    std::string signature = signTelnyxWebhook(keys_.private_key, signed_at, kBody);
    EXPECT_FALSE(
        verifyTelnyxWebhook(public_key_, std::to_string(signed_at), signature, kBody, kNow))
        << signed_at;
  }
}

TEST_F(TelnyxSignature, HeadersAndKeysThatAreNotTelnyxsAreRefusedNotRead) {
  std::string signature = signTelnyxWebhook(keys_.private_key, kNow, kBody);
  std::string ts = std::to_string(kNow);
  for (const std::string& bad_ts :
       std::vector<std::string>{"", " " + ts, ts + "x", "1e9", "-", "99999999999999"})
    EXPECT_FALSE(verifyTelnyxWebhook(public_key_, bad_ts, signature, kBody, kNow)) << bad_ts;
  for (const std::string& bad_signature :
       std::vector<std::string>{"", "not base64!", signature.substr(0, 44), "AAAA"})
    EXPECT_FALSE(verifyTelnyxWebhook(public_key_, ts, bad_signature, kBody, kNow));
  for (const std::string& bad_key :
       std::vector<std::string>{"", "%%%%", crypto::base64("short key"), public_key_ + "AAAA"})
    EXPECT_FALSE(verifyTelnyxWebhook(bad_key, ts, signature, kBody, kNow)) << bad_key;
}
