// The simulator's model of Telnyx's own opt-out handling, one test per sentence of Telnyx's
// guides it follows (quoted), so that the gateway's reading of 40300 is tested against it.
#include <gtest/gtest.h>

#include "ops/carrier_sim/sim_state.h"

using namespace smsgw::sim;

namespace {

const std::string kSubscriber = "+16135550199";
const std::string kAcme = "+16135550101";    // one customer's number
const std::string kBistro = "+16135550102";  // another customer's, on the same profile

}  // namespace

// "Stop words are only recognized if they are the only words in the message."
// "case and whitespace insensitive"
TEST(TelnyxBlockRules, OnlyAStopWordAloneIsOne) {
  for (const char* word : {"STOP", "stop", "  Stop  ", "STOPALL", "stop   all", "UNSUBSCRIBE",
                           "cancel", "END", "quit"}) {
    EXPECT_EQ(telnyxKeyword(word), TelnyxKeyword::OptOut) << word;
  }
  for (const char* text : {"please stop all messages", "STOP!", "ARRET", "stops"})
    EXPECT_EQ(telnyxKeyword(text), TelnyxKeyword::None) << text;
  EXPECT_EQ(telnyxKeyword("unstop"), TelnyxKeyword::OptIn);
  EXPECT_EQ(telnyxKeyword(" Start"), TelnyxKeyword::OptIn);
}

// "Opt outs default at the account level. This means any further messages from other numbers
// from your account that are sent to a number on the opt-out list will not be processed,
// regardless as to whether the numbers are associated with the same messaging profile or not."
TEST(TelnyxBlockRules, AtTheAccountLevelAStopToOneNumberBlocksEveryNumber) {
  SimState telnyx(OptOutHandling::Account);
  auto reply = telnyx.autoReplyTo(kSubscriber, kAcme, "STOP");
  ASSERT_TRUE(reply);
  EXPECT_EQ(*reply, kTelnyxOptOutReply);
  EXPECT_TRUE(telnyx.blockedByRule(kAcme, kSubscriber, "profile-a"));
  EXPECT_TRUE(telnyx.blockedByRule(kBistro, kSubscriber, "profile-b"));
  EXPECT_FALSE(telnyx.blockedByRule(kBistro, "+16135550198", "profile-b")) << "that subscriber";
}

// "Block rules operate at the messaging profile level. If a user opts out from one number on
// your profile, they're opted out from all numbers on that profile."
TEST(TelnyxBlockRules, AtTheProfileLevelAStopBlocksTheNumbersOfThatProfile) {
  SimState telnyx(OptOutHandling::Profile);
  std::vector<std::string> stock = inventoryFor("613");
  ASSERT_TRUE(telnyx.placeOrder(stock[0], "order-a", "profile-a"));
  ASSERT_TRUE(telnyx.placeOrder(stock[1], "order-b", "profile-a"));
  ASSERT_TRUE(telnyx.placeOrder(stock[2], "order-c", "profile-b"));
  ASSERT_TRUE(telnyx.autoReplyTo(kSubscriber, stock[0], "stop"));
  EXPECT_TRUE(telnyx.blockedByRule(stock[1], kSubscriber, "")) << "same profile";
  EXPECT_FALSE(telnyx.blockedByRule(stock[2], kSubscriber, "")) << "another profile";
}

// "To opt in again, the number that opted out has to send any of the following opt-in keywords
// to the exact same number they opted out from: start, unstop"
TEST(TelnyxBlockRules, OnlyAStartToTheNumberTextedLiftsTheRule) {
  SimState telnyx(OptOutHandling::Account);
  ASSERT_TRUE(telnyx.autoReplyTo(kSubscriber, kAcme, "STOP"));
  ASSERT_TRUE(telnyx.autoReplyTo(kSubscriber, kBistro, "START"));
  EXPECT_TRUE(telnyx.blockedByRule(kAcme, kSubscriber, "")) << "START to another number";
  auto reply = telnyx.autoReplyTo(kSubscriber, kAcme, "UNSTOP");
  ASSERT_TRUE(reply);
  EXPECT_EQ(*reply, kTelnyxOptInReply);
  EXPECT_FALSE(telnyx.blockedByRule(kBistro, kSubscriber, ""));
}

TEST(TelnyxBlockRules, HandlingTurnedOffAnswersNothingAndBlocksNothing) {
  SimState telnyx(OptOutHandling::Off);
  EXPECT_FALSE(telnyx.autoReplyTo(kSubscriber, kAcme, "STOP"));
  EXPECT_FALSE(telnyx.blockedByRule(kAcme, kSubscriber, ""));
  EXPECT_FALSE(telnyx.autoReplyTo(kSubscriber, kAcme, "Hello")) << "no keyword, no reply";
}

// Tests share one simulator: a fault turns Telnyx's handling on for one subscriber only.
TEST(TelnyxBlockRules, AFaultTurnsTheHandlingOnForOneSubscriber) {
  SimState telnyx(OptOutHandling::Off);
  ASSERT_FALSE(telnyx.addFault(
      {{"kind", "opt_out_handling"}, {"handling", "account"}, {"subscriber", kSubscriber}}));
  EXPECT_TRUE(telnyx.autoReplyTo(kSubscriber, kAcme, "STOP"));
  EXPECT_FALSE(telnyx.autoReplyTo("+16135550198", kAcme, "STOP")) << "others: still off";
  EXPECT_TRUE(telnyx.blockedByRule(kBistro, kSubscriber, ""));
  telnyx.clearFaults();
  EXPECT_TRUE(telnyx.blockedByRule(kBistro, kSubscriber, "")) << "Telnyx keeps the rules made";
  EXPECT_TRUE(telnyx.addFault({{"kind", "opt_out_handling"}, {"handling", "all"}}));
  EXPECT_TRUE(telnyx.addFault({{"kind", "opt_out_handling"}, {"handling", "account"}}))
      << "subscriber is required";
}
