// The message lifecycle's table (spec "Message status") and the payload forms of message.*
// events (spec "Events").
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "services/messaging/lifecycle.h"

using namespace smsgw;
using namespace smsgw::messaging;
using S = MessageStatus;

namespace {

std::set<std::string> keysOf(const nlohmann::json& object) {
  std::set<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.insert(key);
  return keys;
}

const MessageParties kMessage{"msg_1", "+14165550100", "+15142220123"};

}  // namespace

TEST(MessageLifecycle, EveryMoveGoesWhereTheSpecSaysAndRaisesItsEvent) {
  struct Row {
    Move move;
    std::vector<S> from;
    S to;
    const char* event;
  };
  const Row rows[] = {
      {Move::Accept, {}, S::Queued, "message.queued"},
      {Move::Requeue, {S::Failed}, S::Queued, "message.queued"},
      {Move::CarrierAccepted, {S::Queued}, S::Sending, "message.sent"},
      {Move::CarrierRefused, {S::Queued}, S::Failed, "message.failed"},
      {Move::HandoffInterrupted, {S::Queued}, S::Failed, "message.failed"},
      {Move::CancelledForErasure, {S::Queued}, S::Failed, "message.failed"},
      {Move::ReceiptDelivered, {S::Sending, S::Sent}, S::Delivered, "message.delivered"},
      {Move::ReceiptUndelivered, {S::Sending, S::Sent}, S::Undelivered, "message.undelivered"},
      {Move::ReceiptSendingFailed, {S::Sending, S::Sent}, S::Failed, "message.failed"},
      {Move::ReceiptUnconfirmed, {S::Sending}, S::Sent, "message.sending"},
      {Move::Receive, {}, S::Received, "message.received"},
  };
  for (const auto& row : rows) {
    const Transition& transition = transitionOf(row.move);
    EXPECT_EQ(transition.to, row.to) << row.event;
    EXPECT_EQ(transition.event, row.event);
    for (S status : allMessageStatuses()) {
      bool listed = std::find(row.from.begin(), row.from.end(), status) != row.from.end();
      EXPECT_EQ(allows(row.move, status), listed) << row.event << " from " << toString(status);
    }
    EXPECT_EQ(allows(row.move, std::nullopt), row.from.empty()) << row.event << " for a new one";
  }
}

TEST(MessageLifecycle, NothingLeavesAFinalStatusButARetryOfAFailureBeforeTheCarrier) {
  const Move moves[] = {Move::Accept,
                        Move::Requeue,
                        Move::CarrierAccepted,
                        Move::CarrierRefused,
                        Move::HandoffInterrupted,
                        Move::CancelledForErasure,
                        Move::ReceiptDelivered,
                        Move::ReceiptUndelivered,
                        Move::ReceiptSendingFailed,
                        Move::ReceiptUnconfirmed,
                        Move::Receive};
  for (S final : {S::Delivered, S::Undelivered, S::Received}) {
    for (Move move : moves) EXPECT_FALSE(allows(move, final)) << toString(final);
  }
  for (Move move : moves) EXPECT_EQ(allows(move, S::Failed), move == Move::Requeue);
}

// Issue 51: a send cancelled by an erasure was never judged by the carrier, so it does not count
// toward the account's delivery health; nor is it the platform's failure, which a retry with the
// same Idempotency-Key may queue again (it must not: the number is gone).
TEST(MessageLifecycle, AnErasedRecipientIsAnUnjudgedFailureButNotThePlatforms) {
  const auto& unjudged = unjudgedFailures();
  const auto& platform = platformFailures();
  EXPECT_EQ(unjudged.size(), platform.size() + 1);
  for (ErrorCode code : platform)
    EXPECT_NE(std::find(unjudged.begin(), unjudged.end(), code), unjudged.end());
  EXPECT_NE(std::find(unjudged.begin(), unjudged.end(), ErrorCode::RECIPIENT_ERASED),
            unjudged.end());
  EXPECT_EQ(std::find(platform.begin(), platform.end(), ErrorCode::RECIPIENT_ERASED),
            platform.end());
}

TEST(MessageLifecycle, StatusesReadBackFromTheirNames) {
  for (S status : allMessageStatuses())
    EXPECT_EQ(messageStatusFromString(toString(status)), status);
  EXPECT_FALSE(messageStatusFromString("queued"));
}

TEST(MessageLifecycle, ReceiptsMapToMoves) {
  EXPECT_EQ(receiptMove("delivered"), Move::ReceiptDelivered);
  EXPECT_EQ(receiptMove("delivery_failed"), Move::ReceiptUndelivered);
  EXPECT_EQ(receiptMove("expired"), Move::ReceiptUndelivered);
  EXPECT_EQ(receiptMove("sending_failed"), Move::ReceiptSendingFailed);
  for (const char* confirms_nothing : {"delivery_unconfirmed", "queued", "sending", "sent"})
    EXPECT_EQ(receiptMove(confirms_nothing), Move::ReceiptUnconfirmed) << confirms_nothing;
  EXPECT_THROW(receiptMove("lost"), std::invalid_argument);
  EXPECT_THROW(receiptMove(""), std::invalid_argument) << "a receipt without a status";
}

TEST(MessageLifecycle, APollWaitsForEveryStatusButTheThreeOnTheWay) {
  for (const char* on_the_way : {"queued", "sending", "sent"})
    EXPECT_FALSE(isFinalCarrierStatus(on_the_way)) << on_the_way;
  for (const char* last_word :
       {"delivered", "delivery_failed", "expired", "sending_failed", "delivery_unconfirmed"})
    EXPECT_TRUE(isFinalCarrierStatus(last_word)) << last_word;
}

TEST(MessageLifecycle, EventsCarryTheSpecsFields) {
  auto queued = queuedEvent(kMessage);
  EXPECT_EQ(keysOf(queued),
            (std::set<std::string>{"message_id", "from", "to", "status", "message_status"}));
  EXPECT_EQ(queued["status"], "QUEUED");

  auto sent = sentEvent(kMessage, "carrier-1", 2, 4);
  EXPECT_EQ(sent["message_status"], "SENDING");
  EXPECT_EQ(sent["carrier_message_id"], "carrier-1");
  EXPECT_EQ(sent["segment_count"], 2);
  EXPECT_EQ(sent["cost_cents"], 4);

  // message.failed, form (a): error_code and error_message, no errors.
  auto refused = handoffFailedEvent(kMessage, ErrorCode::CARRIER_THROTTLED, "slow down");
  EXPECT_EQ(refused["error_code"], "CARRIER_THROTTLED");
  EXPECT_EQ(refused["error_message"], "slow down");
  EXPECT_FALSE(refused.contains("errors"));
  // Form (c): no to and no from.
  auto interrupted = interruptedEvent("msg_1");
  EXPECT_EQ(interrupted["error_code"], "STALE_QUEUED");
  EXPECT_FALSE(interrupted.contains("to"));
  EXPECT_FALSE(interrupted.contains("from"));
  // Form (b), from a receipt: the carrier's status and errors, error_code, no error_message.
  auto errors = nlohmann::json::array({{{"code", "30005"}}});
  auto failed = receiptEvent(Move::ReceiptSendingFailed, "sending_failed", errors, "30005");
  EXPECT_EQ(failed["status"], "sending_failed");
  EXPECT_EQ(failed["message_status"], "FAILED");
  EXPECT_EQ(failed["errors"], errors);
  EXPECT_EQ(failed["error_code"], "30005");
  EXPECT_FALSE(failed.contains("error_message"));
  auto delivered = receiptEvent(Move::ReceiptDelivered, "delivered", nlohmann::json::array(), "");
  EXPECT_EQ(delivered["message_status"], "DELIVERED");
  EXPECT_FALSE(delivered.contains("error_code"));

  auto received = receivedEvent(kMessage, "STOP", "opted_out", 1, 1);
  EXPECT_EQ(received["keyword_action"], "opted_out");
  EXPECT_EQ(received["message_status"], "RECEIVED");
  EXPECT_EQ(received["body"], "STOP");
}
