// Ed25519 through OpenSSL: RFC 8032's test vectors, and what a verifier must refuse.
#include "domain/ed25519.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace smsgw;

namespace {

std::string fromHex(std::string_view hex) {
  std::string bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    bytes.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return bytes;
}

struct Rfc8032Vector {
  const char* private_key;
  const char* public_key;
  const char* message;
  const char* signature;
};

// RFC 8032 section 7.1, TEST 1 (an empty message) and TEST 2 (one byte).
const Rfc8032Vector kVectors[] = {
    {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
     "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
    {"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
     "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
};

}  // namespace

TEST(Ed25519, SignsAndVerifiesRfc8032sVectors) {
  for (const auto& vector : kVectors) {
    std::string private_key = fromHex(vector.private_key), message = fromHex(vector.message);
    EXPECT_EQ(crypto::ed25519PublicKey(private_key), fromHex(vector.public_key));
    EXPECT_EQ(crypto::ed25519Sign(private_key, message), fromHex(vector.signature));
    EXPECT_TRUE(
        crypto::ed25519Verify(fromHex(vector.public_key), message, fromHex(vector.signature)));
  }
}

TEST(Ed25519, RefusesAnAlteredMessageSignatureOrAnotherKey) {
  auto pair = crypto::newEd25519KeyPair();
  ASSERT_EQ(pair.private_key.size(), 32u);
  EXPECT_EQ(crypto::ed25519PublicKey(pair.private_key), pair.public_key);
  std::string message = "1700000000|{\"data\":{\"event_type\":\"message.finalized\"}}";
  std::string signature = crypto::ed25519Sign(pair.private_key, message);
  EXPECT_TRUE(crypto::ed25519Verify(pair.public_key, message, signature));

  std::string altered_message = message;
  altered_message[0] = '2';
  EXPECT_FALSE(crypto::ed25519Verify(pair.public_key, altered_message, signature));
  std::string altered_signature = signature;
  altered_signature[10] = static_cast<char>(altered_signature[10] ^ 1);
  EXPECT_FALSE(crypto::ed25519Verify(pair.public_key, message, altered_signature));
  EXPECT_FALSE(crypto::ed25519Verify(crypto::newEd25519KeyPair().public_key, message, signature));
}

TEST(Ed25519, KeysAndSignaturesOfTheWrongSizeAreRefusedNotRead) {
  auto pair = crypto::newEd25519KeyPair();
  std::string signature = crypto::ed25519Sign(pair.private_key, "m");
  EXPECT_FALSE(crypto::ed25519Verify(pair.public_key.substr(0, 31), "m", signature));
  EXPECT_FALSE(crypto::ed25519Verify(pair.public_key + "x", "m", signature));
  EXPECT_FALSE(crypto::ed25519Verify(pair.public_key, "m", signature.substr(0, 63)));
  EXPECT_FALSE(crypto::ed25519Verify(pair.public_key, "m", ""));
  EXPECT_THROW(crypto::ed25519Sign("short", "m"), std::invalid_argument);
  EXPECT_THROW(crypto::ed25519PublicKey(""), std::invalid_argument);
}
