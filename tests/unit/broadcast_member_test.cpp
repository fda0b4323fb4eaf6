// A broadcast member's checks, decided from its standing alone, in a single send's order.
#include <gtest/gtest.h>

#include "services/sending/broadcast_members.h"

using namespace smsgw;
using namespace smsgw::sending;

namespace {

const E164 kLocalFrom = *E164::parse("+16135550500");
const E164 kTollFreeFrom = *E164::parse("+18335550100");

Caller liveCaller() {
  Caller caller;
  caller.account_id = "acc_1";
  caller.mode = KeyMode::Live;
  return caller;
}

// A member every check lets through: consented, mobile, under every limit.
MemberStanding reachable(const std::string& to = "+15142220101") {
  MemberStanding member;
  member.to = to;
  member.destination.cached_line_type = "mobile";
  member.consent.consent_type = "EXPRESS";
  return member;
}

std::optional<ErrorCode> refusal(const MemberStanding& member, const Caller& caller = liveCaller(),
                                 const E164& from = kLocalFrom, bool skip = false) {
  return decideMember(caller, from, member, skip, SendPolicy{}).refusal;
}

}  // namespace

TEST(BroadcastMember, AConsentedMobileMemberIsMessagedWithItsConsentType) {
  auto decision = decideMember(liveCaller(), kLocalFrom, reachable(), false, SendPolicy{});
  EXPECT_EQ(decision.refusal, std::nullopt);
  EXPECT_EQ(decision.consent_type, "EXPRESS");
}

TEST(BroadcastMember, TheNumberComesFirst) {
  MemberStanding member = reachable("+12125550123");
  member.consent.opted_out = true;
  EXPECT_EQ(refusal(member), ErrorCode::NON_CANADIAN_NUMBER);
  member.to = "+14164112345";  // N11 exchange
  EXPECT_EQ(refusal(member), ErrorCode::RESERVED_DESTINATION);
}

TEST(BroadcastMember, ALiveLineTypeKnownAsLandlineOrFailingIsRefusedAnUnknownOneIsNot) {
  MemberStanding member = reachable();
  member.destination.cached_line_type = "landline";
  EXPECT_EQ(refusal(member), ErrorCode::NOT_A_MOBILE_NUMBER);
  member.destination.cached_line_type.reset();
  EXPECT_EQ(refusal(member), std::nullopt) << "not looked up: the carrier refuses a landline";
  member.destination.undeliverable = true;
  EXPECT_EQ(refusal(member), ErrorCode::UNDELIVERABLE_NUMBER);
}

TEST(BroadcastMember, ATollFreeSenderNeedsTheMembersDoubleOptIn) {
  MemberStanding member = reachable();
  EXPECT_EQ(refusal(member, liveCaller(), kTollFreeFrom), ErrorCode::NO_CONSENT);
  member.double_opt_in = true;
  EXPECT_EQ(refusal(member, liveCaller(), kTollFreeFrom), std::nullopt);
}

TEST(BroadcastMember, TheFenceComesBeforeConsent) {
  Caller fenced = liveCaller();
  fenced.deny_list_id = "cl_deny";
  fenced.fenced = true;
  MemberStanding member = reachable();
  member.fence.on_deny_list = true;
  member.consent.opted_out = true;
  EXPECT_EQ(refusal(member, fenced), ErrorCode::DENY_LIST_BLOCKED);
}

TEST(BroadcastMember, ConsentRefusalsAndTheirReasons) {
  MemberStanding member = reachable();
  member.consent.opted_out = true;
  EXPECT_EQ(refusal(member), ErrorCode::OPT_OUT_BLOCKED);
  member = reachable();
  member.consent.consent_type.reset();
  EXPECT_EQ(refusal(member), ErrorCode::NO_CONSENT);
  member.latest_consent_expired = true;
  member.consent.lapsed = true;
  auto decision = decideMember(liveCaller(), kLocalFrom, member, false, SendPolicy{});
  EXPECT_EQ(decision.refusal, ErrorCode::CONSENT_EXPIRED);
  EXPECT_TRUE(decision.consent_lapsed) << "the broadcast marks it EXPIRED";
  // skip_consent_check (TEST keys only; the broadcast refuses it for LIVE before any member).
  Caller test = liveCaller();
  test.mode = KeyMode::Test;
  auto skipped = decideMember(test, kLocalFrom, member, true, SendPolicy{});
  EXPECT_EQ(skipped.refusal, std::nullopt);
  EXPECT_EQ(skipped.consent_type, std::nullopt);
}

TEST(BroadcastMember, TheRecipientLimitsComeLast) {
  MemberStanding member = reachable();
  member.recipient.recipient_last_hour = SendPolicy{}.recipient_hourly_limit;
  EXPECT_EQ(refusal(member), ErrorCode::RECIPIENT_RATE_LIMITED);
  member.consent.opted_out = true;
  EXPECT_EQ(refusal(member), ErrorCode::OPT_OUT_BLOCKED);
}
