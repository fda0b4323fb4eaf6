// The sender's decisions: what a claim that found nothing means, how the carrier's answer
// settles a LIVE message, and a TEST message's simulated hand-off.
#include <gtest/gtest.h>

#include "domain/carrier_hold.h"
#include "services/messaging/handoff_decision.h"

using namespace smsgw;
using namespace smsgw::messaging;
using messaging::Move;

TEST(SenderDecision, AClaimThatFoundNothingIsAReplayALaterSlotAnotherSenderOrADeadOne) {
  EXPECT_EQ(judgeUnclaimed(false, false, false, false), UnclaimedVerdict::Settled);
  EXPECT_EQ(judgeUnclaimed(true, false, true, true), UnclaimedVerdict::Settled);
  EXPECT_EQ(judgeUnclaimed(true, true, false, false), UnclaimedVerdict::NotDue);
  EXPECT_EQ(judgeUnclaimed(true, true, true, false), UnclaimedVerdict::InProgressElsewhere);
  EXPECT_EQ(judgeUnclaimed(true, true, true, true), UnclaimedVerdict::Interrupted);
}

TEST(SenderDecision, AnAcceptedSendSettlesTheChargeOnTheCarriersPartCount) {
  CarrierSendResult result{CarrierSendResult::Kind::Accepted, "c1", 3, "", ""};
  auto decision = decideHandoff(result, 4, 2);  // charged 2 parts at 2¢, the carrier counted 3
  EXPECT_EQ(decision.move, Move::CarrierAccepted);
  EXPECT_EQ(decision.settled_cents, 6);
  EXPECT_EQ(decision.adjustment_cents, -2);  // takes 2¢ more
  result.parts = 1;
  EXPECT_EQ(decideHandoff(result, 4, 2).adjustment_cents, 2);  // gives 2¢ back
  EXPECT_EQ(decideHandoff(result, 0, 2).adjustment_cents, 0);  // cost nothing: nothing moves
}

TEST(SenderDecision, AFlatPriceStandsWhateverThePartsTheCarrierCounted) {
  CarrierSendResult result{CarrierSendResult::Kind::Accepted, "c1", 2, "", ""};
  auto decision = decideHandoff(result, 5, 0);  // a verification: 5¢, no part price
  EXPECT_EQ(decision.settled_cents, 5);
  EXPECT_EQ(decision.adjustment_cents, 0);
}

TEST(SenderDecision, EachRefusalHasItsCodeAndOnlyTheCarriersJudgementCountsAgainstTheNumber) {
  struct Case {
    CarrierSendResult::Kind kind;
    ErrorCode code;
    bool counts;
  };
  for (auto [kind, code, counts] :
       {Case{CarrierSendResult::Kind::Refused, ErrorCode::CARRIER_ERROR, true},
        Case{CarrierSendResult::Kind::Throttled, ErrorCode::CARRIER_THROTTLED, false},
        Case{CarrierSendResult::Kind::Unavailable, ErrorCode::CARRIER_UNAVAILABLE, false},
        Case{CarrierSendResult::Kind::InDoubt, ErrorCode::CARRIER_TIMEOUT, false}}) {
    auto decision = decideHandoff({kind, "", 0, "", ""}, 2, 2);
    EXPECT_EQ(decision.move, Move::CarrierRefused);
    EXPECT_EQ(decision.failure, code);
    EXPECT_EQ(decision.counts_against_destination, counts);
    EXPECT_EQ(decision.error_message, errorInfo(code).message_en);
    EXPECT_EQ(decision.requeue, kind == CarrierSendResult::Kind::Throttled ||
                                    kind == CarrierSendResult::Kind::Unavailable)
        << "the carrier surely did not send it";
    EXPECT_EQ(decision.in_doubt, kind == CarrierSendResult::Kind::InDoubt);
  }
}

// Issue 50: a 429 means the carrier did not send it, and asked us to wait: the message goes back
// in the queue for the window the carrier named (x-ratelimit-reset), a second when it named none.
TEST(SenderDecision, AThrottledSendIsQueuedAgainForTheCarriersWindow) {
  CarrierSendResult throttled{CarrierSendResult::Kind::Throttled, "", 0, "10011", "slow down"};
  throttled.retry_after = std::chrono::seconds(30);
  EXPECT_EQ(decideHandoff(throttled, 2, 2).requeue_after, std::chrono::seconds(30));
  throttled.retry_after = std::chrono::seconds(0);
  EXPECT_EQ(decideHandoff(throttled, 2, 2).requeue_after, std::chrono::seconds(1))
      << "a window the carrier did not name: its smallest";
  throttled.retry_after = std::chrono::seconds(86400);
  EXPECT_EQ(decideHandoff(throttled, 2, 2).requeue_after, CarrierHold::kLongest)
      << "a wrong header cannot park a text for a day";
}

// Found by the deployment test: a send whose connection to the carrier failed (a container's
// name briefly unresolved) was failed at once, though it had never left.
TEST(SenderDecision, ASendThatNeverReachedTheCarrierIsQueuedAgainShortly) {
  auto decision = decideHandoff({CarrierSendResult::Kind::Unavailable, "", 0, "", ""}, 2, 2);
  EXPECT_TRUE(decision.requeue);
  EXPECT_EQ(decision.requeue_after, std::chrono::seconds(2));
  EXPECT_FALSE(decision.in_doubt);
}

TEST(SenderDecision, TheCarriersOwnCodeIsKeptInTheMessagesText) {
  auto decision = decideHandoff({CarrierSendResult::Kind::Refused, "", 0, "40008", "x"}, 2, 2);
  EXPECT_EQ(decision.error_message,
            std::string(errorInfo(ErrorCode::CARRIER_ERROR).message_en) + " (carrier 40008)");
}

// Issue 50: Telnyx's 40300 is its own block rule, made by a STOP to any number of the profile
// or account, maybe another customer's. It fails and refunds the send like a refusal, says why,
// and never counts toward UNDELIVERABLE_NUMBER.
TEST(SenderDecision, AnOptOutTheCarrierKeepsFailsTheSendWithoutCountingAgainstTheRecipient) {
  auto decision =
      decideHandoff({CarrierSendResult::Kind::OptedOutAtCarrier, "", 0, "40300", "x"}, 2, 2);
  EXPECT_EQ(decision.move, Move::CarrierRefused);
  EXPECT_EQ(decision.failure, ErrorCode::CARRIER_ERROR);
  EXPECT_FALSE(decision.counts_against_destination);
  EXPECT_TRUE(decision.opted_out_at_carrier);
  EXPECT_FALSE(decision.requeue);
  EXPECT_FALSE(decision.in_doubt);
  EXPECT_EQ(decision.error_message, std::string(errorInfo(ErrorCode::CARRIER_ERROR).message_en) +
                                        " The recipient opted out at the carrier (carrier 40300).");
}

TEST(SenderDecision, TestMessagesFollowTheMagicNumbers) {
  auto refused = simulateHandoff("msg_1", "+14165550100");
  EXPECT_EQ(refused.move, Move::CarrierRefused);
  EXPECT_EQ(refused.failure, ErrorCode::CARRIER_ERROR);
  EXPECT_FALSE(refused.receipt);

  auto undelivered = simulateHandoff("msg_2", "+14165550101");
  EXPECT_EQ(undelivered.move, Move::CarrierAccepted);
  ASSERT_TRUE(undelivered.receipt);
  EXPECT_EQ(undelivered.receipt->carrier_message_id, "sim_msg_2");
  EXPECT_EQ(undelivered.receipt->status, "delivery_failed");
  EXPECT_EQ(undelivered.receipt->errors[0]["code"], "30003");

  auto delivered = simulateHandoff("msg_3", "+14165550123");
  ASSERT_TRUE(delivered.receipt);
  EXPECT_EQ(delivered.receipt->status, "delivered");
  EXPECT_TRUE(delivered.receipt->errors.empty());
}
