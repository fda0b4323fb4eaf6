// The codes a verification texts and the seal that carries them to the sender.
#include "domain/crypto.h"

#include <gtest/gtest.h>

#include <map>

using namespace smsgw;

TEST(Crypto, RandomDigitsAreDigitsOfTheLengthAskedAndSpreadEvenly) {
  std::map<char, int> seen;
  for (int i = 0; i < 2000; ++i) {
    std::string code = crypto::randomDigits(10);
    ASSERT_EQ(code.size(), 10u);
    for (char c : code) {
      ASSERT_TRUE(c >= '0' && c <= '9') << code;
      ++seen[c];
    }
  }
  ASSERT_EQ(seen.size(), 10u);
  for (const auto& [digit, n] : seen) EXPECT_NEAR(n, 2000, 300) << digit;  // 20,000 draws
  EXPECT_EQ(crypto::randomDigits(4).size(), 4u);
}

TEST(Crypto, ASealedTextOpensOnlyUnderItsKeyAndUnaltered) {
  std::string key = crypto::sha256("a key"), other = crypto::sha256("another key");
  std::string sealed = crypto::seal(key, "482913");
  EXPECT_EQ(sealed.find("482913"), std::string::npos);
  EXPECT_EQ(crypto::openSealed(key, sealed), "482913");
  EXPECT_NE(crypto::seal(key, "482913"), sealed) << "a fresh nonce each time";
  EXPECT_EQ(crypto::openSealed(other, sealed), std::nullopt);
  std::string altered = sealed;
  altered[4] = altered[4] == 'A' ? 'B' : 'A';
  EXPECT_EQ(crypto::openSealed(key, altered), std::nullopt);
  EXPECT_EQ(crypto::openSealed(key, "not base64!"), std::nullopt);
  EXPECT_EQ(crypto::openSealed(key, ""), std::nullopt);
}
