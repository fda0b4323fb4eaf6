// The SQL that moves a message holds to the lifecycle table: for every status a message can be
// in, every move that changes a message's status (a retry queueing it again, the carrier's
// acceptance and refusal, an interrupted hand-off, an erasure, the receipts) changes it exactly
// when services/messaging/lifecycle allows that move from that status, and to the table's
// target. A new message (Accept, Receive) has no status to start from: the send and inbound
// tests cover those.
#include <gtest/gtest.h>
#include <soci/soci.h>

#include "db/database.h"
#include "db/procedures/accept_outbound_message.h"
#include "db/procedures/record_carrier_acceptance.h"
#include "domain/ids.h"
#include "services/messaging/erased_recipient.h"
#include "services/messaging/handoffs.h"
#include "services/messaging/lifecycle.h"
#include "services/messaging/receipts.h"
#include "tests/support/scratch_database.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"

using namespace smsgw;
using namespace smsgw::messaging;
using namespace smsgw::testing;

namespace {

class MessageLifecycleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.exec("INSERT INTO accounts (id, name, email, password_hash) VALUES ('" + account_ +
                  "', 'T', '" + account_ + "@ex.ca', 'x')");
  }

  // A TEST message (nothing to refund) already in `status`, known to the carrier as `id`. A
  // FAILED one failed before the carrier (CARRIER_UNAVAILABLE), so a retry may queue it again.
  std::string messageIn(MessageStatus status) {
    std::string id = newId("msg");
    std::string direction = status == MessageStatus::Received ? "INBOUND" : "OUTBOUND";
    std::string error = status == MessageStatus::Failed ? "'CARRIER_UNAVAILABLE'" : "NULL";
    scratch_.exec(
        "INSERT INTO messages (id, account_id, direction, from_number, to_number, body, status, "
        "segment_count, mode, cost_cents, carrier_message_id, error_code) VALUES ('" +
        id + "', '" + account_ + "', '" + direction + "', '+14165550100', '" + kTo + "', 'hi', '" +
        std::string(toString(status)) + "', 1, 'TEST', 0, 'carrier-" + id + "', " + error + ")");
    return id;
  }

  std::string statusOf(const std::string& id) {
    db::Session sql(database_);
    std::string status;
    *sql << "SELECT status FROM messages WHERE id = :id", soci::use(id), soci::into(status);
    return status;
  }

  // Checks one move from every status: `apply` makes it on a message in that status.
  template <typename Apply>
  void holdsToTheTable(Move move, Apply apply) {
    for (MessageStatus from : allMessageStatuses()) {
      std::string id = messageIn(from);
      {
        db::Session sql(database_);
        soci::transaction txn(*sql);
        apply(*sql, id);
        txn.commit();
      }
      std::string expected(allows(move, from) ? toString(transitionOf(move).to) : toString(from));
      EXPECT_EQ(statusOf(id), expected) << "from " << toString(from);
    }
  }

  ScratchDatabase scratch_;
  db::Database database_{scratch_.url(), 2};
  static constexpr const char* kTo = "+14165550123";
  std::string account_ = newId("acc");
  SendPolicy policy_;
};

}  // namespace

TEST_F(MessageLifecycleTest, ReceiptsMoveOnlyWhatTheTableAllows) {
  for (std::string carrier_status :
       {"delivered", "delivery_failed", "expired", "sending_failed", "delivery_unconfirmed"}) {
    Move move = receiptMove(carrier_status);
    holdsToTheTable(move, [&](soci::session& sql, const std::string& id) {
      applyReceipt(sql, {"carrier-" + id, carrier_status, nlohmann::json::array()}, policy_,
                   std::chrono::system_clock::now());
    });
  }
}

TEST_F(MessageLifecycleTest, AnUnconfirmedReceiptTwiceRaisesOneEventAndALateOutcomeSettles) {
  // Telnyx retries a callback it did not see answered, and Kafka may deliver a record twice.
  std::string id = messageIn(MessageStatus::Sending);
  auto apply = [&](const std::string& carrier_status) {
    db::Session sql(database_);
    return applyReceipt(*sql, {"carrier-" + id, carrier_status, nlohmann::json::array()}, policy_,
                        std::chrono::system_clock::now());
  };
  EXPECT_EQ(apply("delivery_unconfirmed"), ReceiptOutcome::Applied);
  EXPECT_EQ(apply("delivery_unconfirmed"), ReceiptOutcome::Unchanged);
  EXPECT_EQ(statusOf(id), "SENT");
  int events = 0;
  {
    db::Session sql(database_);
    *sql << "SELECT count(*) FROM events WHERE data->>'message_id' = :id AND "
            "type = 'message.sending' AND data->>'status' = 'delivery_unconfirmed'",
        soci::use(id), soci::into(events);
  }
  EXPECT_EQ(events, 1);
  EXPECT_EQ(apply("delivered"), ReceiptOutcome::Applied) << "a handset's late receipt still counts";
  EXPECT_EQ(statusOf(id), "DELIVERED");
}

TEST_F(MessageLifecycleTest, TheCarriersAcceptanceMovesOnlyWhatTheTableAllows) {
  holdsToTheTable(Move::CarrierAccepted, [&](soci::session& sql, const std::string& id) {
    auto event = topics::prepareEvent(
        {account_, "message.sent", false,
         sentEvent({id, "+14165550100", "+14165550123"}, "carrier-" + id, 1, 0)});
    const Transition& move = transitionOf(Move::CarrierAccepted);
    db::CarrierAcceptance acceptance;
    acceptance.message_id = id;
    acceptance.status = toString(move.to);
    acceptance.event_type = move.event;
    acceptance.carrier_message_id = "carrier-" + id;
    acceptance.parts = 1;
    acceptance.event_id = event.id;
    acceptance.event_record = event.record_json;
    acceptance.events_topic = topics::kEvents.name;
    acceptance.now = std::chrono::system_clock::now();
    db::recordCarrierAcceptance(sql, acceptance);
  });
}

TEST_F(MessageLifecycleTest, AnInterruptedHandOffMovesOnlyWhatTheTableAllows) {
  holdsToTheTable(Move::HandoffInterrupted, [&](soci::session& sql, const std::string& id) {
    messaging::failStaleHandoff(sql, id, std::chrono::system_clock::now());
  });
}

TEST_F(MessageLifecycleTest, ARetryQueueingAgainMovesOnlyWhatTheTableAllows) {
  holdsToTheTable(Move::Requeue, [&](soci::session& sql, const std::string& id) {
    auto event = topics::prepareEvent(
        {account_, "message.queued", false, queuedEvent({id, "+14165550100", kTo})});
    const Transition& move = transitionOf(Move::Requeue);
    db::OutboundAcceptance send;
    send.message_id = id;
    send.account_id = account_;
    send.mode = "TEST";
    send.from = "+14165550100";
    send.to = kTo;
    send.body = "hi";
    send.parts = 1;
    send.queue_again = true;
    send.attempt = 2;
    send.status = toString(move.to);
    send.event_type = move.event;
    send.event_id = event.id;
    send.event_record = event.record_json;
    send.events_topic = topics::kEvents.name;
    send.outbound_topic = topics::kSmsOutbound.name;
    send.outbound_record = "{}";
    send.now = std::chrono::system_clock::now();
    db::acceptOutboundMessage(sql, send);  // ALREADY_QUEUED when not FAILED: nothing written
  });
}

TEST_F(MessageLifecycleTest, TheCarriersRefusalMovesOnlyWhatTheTableAllows) {
  holdsToTheTable(Move::CarrierRefused, [&](soci::session& sql, const std::string& id) {
    OutgoingMessage message;
    message.charge = {id, account_, 1, 0};
    message.from = "+14165550100";
    message.to = kTo;
    HandoffDecision refused;
    refused.move = Move::CarrierRefused;
    refused.failure = ErrorCode::CARRIER_ERROR;
    refused.error_message = "refused";
    recordCarrierAnswer(sql, message, CarrierSendResult{}, refused, policy_,
                        std::chrono::system_clock::now());
  });
}

TEST_F(MessageLifecycleTest, AnErasureCancelsOnlyWhatTheTableAllows) {
  holdsToTheTable(Move::CancelledForErasure, [&](soci::session& sql, const std::string&) {
    cancelSendsToErasedNumber(sql, account_, kTo, "erased-token", std::chrono::system_clock::now());
  });
}
