// A key's fence: the DENY list wins, an ALLOW list (or default-deny) must hold the recipient.
#include "domain/fence.h"

#include <gtest/gtest.h>

using namespace smsgw;

namespace {

Caller fencedBy(std::optional<std::string> allow, std::optional<std::string> deny,
                bool default_deny = false) {
  Caller caller;
  caller.allow_list_id = std::move(allow);
  caller.deny_list_id = std::move(deny);
  caller.allow_list_required = default_deny || caller.allow_list_id;
  caller.fenced = caller.allow_list_required || caller.deny_list_id;
  return caller;
}

}  // namespace

TEST(Fence, AKeyWithoutListsMessagesAnyone) {
  EXPECT_EQ(fenceRefusal(Caller{}, {}), std::nullopt);
}

TEST(Fence, AnAllowListMustHoldTheRecipient) {
  Caller caller = fencedBy("cl_allow", std::nullopt);
  EXPECT_EQ(fenceRefusal(caller, {true, false}), std::nullopt);
  EXPECT_EQ(fenceRefusal(caller, {false, false}), ErrorCode::ALLOW_LIST_BLOCKED);
}

TEST(Fence, ADenyListRefusesWhomItHoldsAndNobodyElse) {
  Caller caller = fencedBy(std::nullopt, "cl_deny");
  EXPECT_EQ(fenceRefusal(caller, {false, true}), ErrorCode::DENY_LIST_BLOCKED);
  EXPECT_EQ(fenceRefusal(caller, {false, false}), std::nullopt);
}

TEST(Fence, TheDenyListWinsOverTheAllowList) {
  Caller caller = fencedBy("cl_allow", "cl_deny");
  EXPECT_EQ(fenceRefusal(caller, {true, true}), ErrorCode::DENY_LIST_BLOCKED);
  EXPECT_EQ(fenceRefusal(caller, {true, false}), std::nullopt);
}

TEST(Fence, DefaultDenyWithoutAnAllowListMessagesNobody) {
  Caller caller = fencedBy(std::nullopt, std::nullopt, true);
  EXPECT_EQ(fenceRefusal(caller, {false, false}), ErrorCode::ALLOW_LIST_BLOCKED);
  // A placement the database could not give (no list) changes nothing.
  EXPECT_EQ(fenceRefusal(caller, {true, false}), ErrorCode::ALLOW_LIST_BLOCKED);
}
