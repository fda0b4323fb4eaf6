// Identifiers: public ids and event ids sort in the order they were made (so primary keys grow
// at their right edge) and still carry enough randomness to be unguessable.
#include "domain/ids.h"

#include <gtest/gtest.h>

#include <chrono>
#include <set>

#include "domain/crypto.h"

using namespace smsgw;

TEST(Ids, APublicIdIsItsPrefixAnd24Base62CharactersAndLaterIdsSortLater) {
  auto made_at = std::chrono::system_clock::now();
  std::string first = newId("msg", made_at);
  std::string second = newId("msg", made_at + std::chrono::milliseconds(1));
  ASSERT_EQ(first.size(), 4u + 24u);
  EXPECT_EQ(first.substr(0, 4), "msg_");
  EXPECT_EQ(
      first.find_first_not_of("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 4),
      std::string::npos)
      << first;
  EXPECT_LT(first, second);

  // Made in the same millisecond, ids share their time and differ in their 16 random characters.
  std::set<std::string> random_parts;
  for (int i = 0; i < 1000; ++i) random_parts.insert(newId("msg").substr(12));
  EXPECT_EQ(random_parts.size(), 1000u);
}

TEST(Ids, AnEventIdIsAVersion7UuidThatSortsByTime) {
  auto made_at = std::chrono::system_clock::now();
  std::string first = crypto::uuid7(made_at);
  std::string second = crypto::uuid7(made_at + std::chrono::milliseconds(1));
  ASSERT_EQ(first.size(), 36u);
  EXPECT_EQ(first[14], '7') << first;
  EXPECT_NE(std::string("89ab").find(first[19]), std::string::npos) << first;
  EXPECT_LT(first, second);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                .count();
  long long stamped = std::stoll(second.substr(0, 8) + second.substr(9, 4), nullptr, 16);
  EXPECT_NEAR(static_cast<double>(stamped), static_cast<double>(ms), 5000.0)
      << "the first 48 bits are the time in milliseconds";
}
