// A carrier receipt's decisions: its move, the code the message keeps, what a LIVE move
// entails.
#include "services/messaging/receipt_decision.h"

#include <gtest/gtest.h>

using namespace smsgw;
using namespace smsgw::messaging;

TEST(ReceiptDecision, EachTelnyxStatusIsItsMove) {
  EXPECT_EQ(decideReceipt({"c", "delivered"}).move, Move::ReceiptDelivered);
  EXPECT_EQ(decideReceipt({"c", "delivery_failed"}).move, Move::ReceiptUndelivered);
  EXPECT_EQ(decideReceipt({"c", "expired"}).move, Move::ReceiptUndelivered);
  EXPECT_EQ(decideReceipt({"c", "sending_failed"}).move, Move::ReceiptSendingFailed);
  EXPECT_EQ(decideReceipt({"c", "delivery_unconfirmed"}).move, Move::ReceiptUnconfirmed);
  EXPECT_EQ(decideReceipt({"c", "sending"}).move, Move::ReceiptUnconfirmed)
      << "a final word that is still sending";
}

TEST(ReceiptDecision, AStatusTheProtocolDoesNotHaveIsPermanent) {
  EXPECT_THROW(decideReceipt({"c", "lost_in_space"}), topics::PermanentError);
  EXPECT_THROW(decideReceipt({"c", ""}), topics::PermanentError);
}

TEST(ReceiptDecision, TheMessageKeepsTheCarriersFirstCodeWhenItIsText) {
  topics::CarrierReceipt receipt{"c", "delivery_failed"};
  receipt.errors = nlohmann::json::array({{{"code", "30003"}}, {{"code", "30005"}}});
  EXPECT_EQ(decideReceipt(receipt).error_code, "30003");
  receipt.errors = nlohmann::json::array({{{"code", 30003}}});  // not the protocol's type
  EXPECT_EQ(decideReceipt(receipt).error_code, "");
  receipt.errors = nlohmann::json::array({"30003"});
  EXPECT_EQ(decideReceipt(receipt).error_code, "");
  topics::CarrierReceipt unconfirmed{"c", "delivery_unconfirmed"};
  unconfirmed.errors = nlohmann::json::array({{{"code", "40008"}}});
  EXPECT_EQ(decideReceipt(unconfirmed).error_code, "") << "only a failure keeps a code";
}

TEST(ReceiptDecision, OnlyALiveMessageTheCarrierCouldNotSendIsRefunded) {
  EXPECT_FALSE(followUpOf(Move::ReceiptDelivered, true).refund);
  EXPECT_FALSE(followUpOf(Move::ReceiptDelivered, true).counts_against_destination);
  EXPECT_FALSE(followUpOf(Move::ReceiptUndelivered, true).refund);  // the charge is kept
  EXPECT_TRUE(followUpOf(Move::ReceiptUndelivered, true).counts_against_destination);
  EXPECT_TRUE(followUpOf(Move::ReceiptSendingFailed, true).refund);
  EXPECT_TRUE(followUpOf(Move::ReceiptSendingFailed, true).counts_against_destination);
  EXPECT_FALSE(followUpOf(Move::ReceiptSendingFailed, false).refund);  // TEST: nothing
  EXPECT_FALSE(followUpOf(Move::ReceiptUndelivered, false).counts_against_destination);
  EXPECT_FALSE(followUpOf(Move::ReceiptUnconfirmed, true).refund) << "the charge is kept";
  EXPECT_FALSE(followUpOf(Move::ReceiptUnconfirmed, true).counts_against_destination)
      << "no evidence against the number";
}
