#include "domain/permissions.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "domain/errors.h"

using namespace smsgw;

TEST(Permissions, GrantsOnlyTheListedLetters) {
  auto p = Permissions::fromJson({{"messages", "rw"}, {"contacts", "r"}});
  EXPECT_TRUE(p.allows("messages", 'r'));
  EXPECT_TRUE(p.allows("messages", 'w'));
  EXPECT_FALSE(p.allows("messages", 'd'));
  EXPECT_TRUE(p.allows("contacts", 'r'));
  EXPECT_FALSE(p.allows("compliance", 'r'));  // a missing resource denies all
}

TEST(Permissions, RefusesUnknownResourcesAndLetters) {
  EXPECT_THROW(Permissions::fromJson({{"nukes", "r"}}), ApiError);
  EXPECT_THROW(Permissions::fromJson({{"messages", "rx"}}), ApiError);
  EXPECT_THROW(Permissions::fromJson({{"messages", 7}}), ApiError);
  EXPECT_THROW(Permissions::fromJson(nlohmann::json::array()), ApiError);
}

TEST(Permissions, NormalizesLettersAndDropsEmptyResources) {
  auto p = Permissions::fromJson({{"messages", "dwrr"}, {"contacts", ""}});
  EXPECT_EQ(p.toJson(), nlohmann::json({{"messages", "rwd"}}));
}

TEST(Permissions, SubsetDetectsEscalation) {
  auto caller = Permissions::fromJson({{"messages", "rw"}, {"contacts", "rwmd"}});
  EXPECT_TRUE(Permissions::fromJson({{"messages", "r"}}).isSubsetOf(caller));
  EXPECT_TRUE(Permissions::fromJson(nlohmann::json::object()).isSubsetOf(caller));
  EXPECT_FALSE(Permissions::fromJson({{"messages", "rwd"}}).isSubsetOf(caller));
  EXPECT_FALSE(Permissions::fromJson({{"compliance", "r"}}).isSubsetOf(caller));
  EXPECT_TRUE(caller.isSubsetOf(Permissions::everything()));
}

TEST(PermissionRequirement, AnyListedLetterSuffices) {
  auto requirement = PermissionRequirement::parse("compliance:md");
  EXPECT_TRUE(requirement.satisfiedBy(Permissions::fromJson({{"compliance", "d"}})));
  EXPECT_TRUE(requirement.satisfiedBy(Permissions::fromJson({{"compliance", "m"}})));
  EXPECT_FALSE(requirement.satisfiedBy(Permissions::fromJson({{"compliance", "rw"}})));
  EXPECT_FALSE(requirement.satisfiedBy(Permissions::fromJson({{"messages", "rwmd"}})));
}
