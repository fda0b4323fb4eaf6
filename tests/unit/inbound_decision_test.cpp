// The inbound-keyword worker's decisions: the inbound cap, and what a keyword comes to.
#include "services/compliance/inbound_decision.h"

#include <gtest/gtest.h>

using namespace smsgw;
using namespace smsgw::compliance;

TEST(InboundDecision, TheCapStopsOrdinaryTextsButNeverStopStartOrHelp) {
  EXPECT_FALSE(isCapped(Keyword::None, 0, 1'000'000));  // no cap
  EXPECT_FALSE(isCapped(Keyword::None, 10, 9));
  EXPECT_TRUE(isCapped(Keyword::None, 10, 10));
  EXPECT_TRUE(isCapped(Keyword::Yes, 10, 11));
  EXPECT_FALSE(isCapped(Keyword::Stop, 10, 11));
  EXPECT_FALSE(isCapped(Keyword::Start, 10, 11));
  EXPECT_FALSE(isCapped(Keyword::Help, 10, 11));
}

TEST(InboundDecision, StopAlwaysOptsOutAndRepliesButAnnouncesOnlyANewOptOut) {
  auto first = keywordOutcome(Keyword::Stop, true);
  EXPECT_EQ(first.action, "opted_out");
  EXPECT_EQ(first.auto_reply_keyword, "STOP");
  EXPECT_EQ(first.event_type, "opt_out.recorded");
  EXPECT_TRUE(first.reviews_opt_out_rate);
  auto again = keywordOutcome(Keyword::Stop, false);
  EXPECT_EQ(again.action, "opted_out");
  EXPECT_EQ(again.auto_reply_keyword, "STOP");
  EXPECT_FALSE(again.event_type);
}

TEST(InboundDecision, StartCountsOnlyWhenItReinstatesAnOptOut) {
  auto reinstated = keywordOutcome(Keyword::Start, true);
  EXPECT_EQ(reinstated.action, "reinstated");
  EXPECT_EQ(reinstated.auto_reply_keyword, "START");
  EXPECT_EQ(reinstated.event_type, "opt_out.reinstated");
  EXPECT_FALSE(reinstated.reviews_opt_out_rate);
  auto ordinary = keywordOutcome(Keyword::Start, false);
  EXPECT_EQ(ordinary.action, "ignored");
  EXPECT_FALSE(ordinary.auto_reply_keyword);
  EXPECT_FALSE(ordinary.event_type);
}

TEST(InboundDecision, HelpIsAnsweredAndYesAndOrdinaryTextsAreNot) {
  auto help = keywordOutcome(Keyword::Help, false);
  EXPECT_EQ(help.action, "help");
  EXPECT_EQ(help.auto_reply_keyword, "HELP");
  EXPECT_FALSE(help.event_type);
  for (Keyword keyword : {Keyword::Yes, Keyword::None}) {
    auto outcome = keywordOutcome(keyword, true);
    EXPECT_EQ(outcome.action, "ignored");
    EXPECT_FALSE(outcome.auto_reply_keyword);
    EXPECT_FALSE(outcome.event_type);
    EXPECT_FALSE(outcome.reviews_opt_out_rate);
  }
}
