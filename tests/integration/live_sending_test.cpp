// LIVE sending against a real database with a scriptable carrier: pacing left to the queued
// sweep, hand-offs a crash left behind, the carrier-counted charge, receipts that arrive
// before the send result or more than once, and automatic account protection.
#include <atomic>
#include <thread>

#include "domain/crypto.h"
#include "services/messaging/charges.h"
#include "services/messaging/protection.h"
#include "services/messaging/retention.h"
#include "services/webhooks/account_event_emails.h"
#include "tests/integration/numbers_fixture.h"
#include "tests/support/recording_mailer.h"
#include "topics/event_writer.h"
#include "workers/receipt/receipt_handler.h"
#include "workers/sender/queued_sweep.h"
#include "workers/sender/reconciler.h"
#include "workers/sender/sender_handler.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

constexpr int kPartPrice = 2;

}  // namespace

class LiveSendingTest : public NumbersTest {
 protected:
  void SetUp() override {
    account_ = newAccount(1000);
    number_ = "+16135550400";
    buy(account_, number_, at("2027-01-10T10:00:00Z"));
  }
  // A charged LIVE message as POST /v1/messages leaves it; `send_at_sql` is its pacing slot.
  std::string queue(int parts, const std::string& send_at_sql = "now()",
                    const std::string& to = "+16132220199") {
    std::string id = newId("msg");
    long long cost = static_cast<long long>(parts) * kPartPrice;
    scratch_.exec(
        "INSERT INTO messages (id, account_id, direction, from_number, to_number, body, status, "
        "segment_count, mode, cost_cents, part_price_cents, send_at) VALUES ('" +
        id + "', '" + account_ + "', 'OUTBOUND', '" + number_ + "', '" + to + "', 'Hello', " +
        "'QUEUED', " + std::to_string(parts) + ", 'LIVE', " + std::to_string(cost) + ", " +
        std::to_string(kPartPrice) + ", " + send_at_sql + ")");
    db::Session sql(database_);
    db::postLedgerEntry(*sql, {account_, -cost, "sms_outbound", id, "SMS"});
    return id;
  }
  topics::Record outbound(const std::string& id) {
    topics::OutboundSms sms{id, account_, number_, "LIVE"};
    return {"sms.outbound", 0, 0, number_, sms.toJson().dump(), {}};
  }
  topics::Record receipt(const std::string& carrier_id, const std::string& status) {
    topics::CarrierReceipt r{carrier_id, status};
    if (status != "delivered") r.errors = nlohmann::json::array({{{"code", "30005"}}});
    return {"carrier.receipts", 0, 0, carrier_id, r.toJson().dump(), {}};
  }
  std::string statusOf(const std::string& id) {
    return text("SELECT status FROM messages WHERE id = '" + id + "'");
  }
  std::string carrierIdOf(const std::string& id) {
    return text("SELECT carrier_message_id FROM messages WHERE id = '" + id + "'");
  }
  long long costOf(const std::string& id) {
    return query("SELECT cost_cents FROM messages WHERE id = '" + id + "'");
  }
  long long events(const std::string& type) { return count("events WHERE type = '" + type + "'"); }
  // Settled LIVE messages for the protection sample: `failed` of `total` undelivered.
  void history(int total, int failed) {
    for (int i = 0; i < total; ++i) {
      scratch_.exec(
          "INSERT INTO messages (id, account_id, direction, from_number, to_number, body, "
          "status, segment_count, mode, created_at) VALUES ('" +
          newId("msg") + "', '" + account_ + "', 'OUTBOUND', '" + number_ + "', '+1613222" +
          std::to_string(1000 + i) + "', 'x', '" + (i < failed ? "UNDELIVERED" : "DELIVERED") +
          "', 1, 'LIVE', now() - interval '1 minute')");
    }
  }
  // Moves the relay's position past every row written so far, as a relay would.
  void publishEverything() {
    scratch_.exec(
        "UPDATE outbox_relay_position SET (stamp, id) = (SELECT stamp, id FROM outbox_pending "
        "ORDER BY stamp DESC, id DESC LIMIT 1) WHERE EXISTS (SELECT 1 FROM outbox_pending)");
  }
  void reviewHealth(const SendPolicy& policy = {}) {
    db::Session sql(database_);
    soci::transaction tx(*sql);
    messaging::reviewDeliveryHealth(*sql, account_, policy, std::chrono::system_clock::now());
    tx.commit();
  }

  workers::SenderHandler sender_{context_, carrier_, carrier_hold_};
  workers::ReceiptHandler receipts_{context_};
  workers::EverythingRead read_everything_;  // records go to handlers by hand, not through Kafka
  std::string account_, number_;
};

TEST_F(LiveSendingTest, APacedMessageIsLeftToTheSweepAndSentWhenItsSlotComes) {
  std::string later = queue(1, "now() + interval '2 seconds'");
  sender_(outbound(later));
  EXPECT_EQ(carrier_.sent().size(), 0u) << "the record is acknowledged, not held";
  EXPECT_EQ(statusOf(later), "QUEUED");
  workers::sweepQueued(context_, carrier_, carrier_hold_, {});
  EXPECT_EQ(carrier_.sent().size(), 0u) << "not due yet";
  clock_.skip(std::chrono::milliseconds(2100));  // past its slot
  auto counts = workers::sweepQueued(context_, carrier_, carrier_hold_, {});
  EXPECT_EQ(counts.handed_off, 1);
  EXPECT_EQ(statusOf(later), "SENDING");
  sender_(outbound(later));  // the record replayed after the sweep sent it
  workers::sweepQueued(context_, carrier_, carrier_hold_, {});
  EXPECT_EQ(carrier_.sent().size(), 1u) << "one SMS, however it was found";
}

TEST_F(LiveSendingTest, ACarriers429HoldsTheOtherSendsUntilItsWindowResets) {
  std::string throttled = queue(1), held = queue(1), also_held = queue(1, "now()", "+16132220198");
  carrier_.on_send = [&](const FakeCarrier::SentText& text) {
    if (carrier_.sent().size() > 1) {
      return FakeCarrier::acceptedAs("fake_" + text.to + "_" +
                                     std::to_string(carrier_.sent().size()));
    }
    CarrierSendResult too_many;  // Telnyx: 429, errors[0].code 10011, x-ratelimit-reset: 30
    too_many.kind = CarrierSendResult::Kind::Throttled;
    too_many.error_code = "10011";
    too_many.retry_after = std::chrono::seconds(30);
    return too_many;
  };
  sender_(outbound(throttled));
  EXPECT_EQ(statusOf(throttled), "QUEUED") << "queued again: the carrier did not send it";
  EXPECT_EQ(costOf(throttled), kPartPrice) << "still charged: it will go";
  EXPECT_EQ(events("message.failed"), 0);

  sender_(outbound(held));
  sender_(outbound(also_held));
  EXPECT_EQ(carrier_.sent().size(), 1u) << "nothing sent into the carrier's window";
  EXPECT_EQ(statusOf(held), "QUEUED");
  EXPECT_EQ(statusOf(also_held), "QUEUED");
  EXPECT_EQ(costOf(held), kPartPrice) << "still charged: it will go";
  clock_.skip(std::chrono::seconds(29));
  EXPECT_EQ(workers::sweepQueued(context_, carrier_, carrier_hold_, {}).handed_off, 0);
  EXPECT_EQ(carrier_.sent().size(), 1u) << "the window has a second to go";

  clock_.skip(std::chrono::seconds(2));
  EXPECT_EQ(workers::sweepQueued(context_, carrier_, carrier_hold_, {}).handed_off, 3);
  EXPECT_EQ(statusOf(throttled), "SENDING") << "the throttled text goes when the window opens";
  EXPECT_EQ(statusOf(held), "SENDING");
  EXPECT_EQ(statusOf(also_held), "SENDING");
  ASSERT_EQ(carrier_.sent().size(), 4u);
  EXPECT_EQ(carrier_.sent()[1].to, "+16132220199") << "in the order they were queued";
  EXPECT_EQ(carrier_.sent()[3].to, "+16132220198");
  sender_(outbound(throttled));  // the records replayed after the sweep sent them
  sender_(outbound(held));
  sender_(outbound(also_held));
  EXPECT_EQ(carrier_.sent().size(), 4u) << "one SMS each, however it was found";
  EXPECT_EQ(events("message.sent"), 3);
  EXPECT_EQ(events("message.failed"), 0);
  expectBalanceMatchesLedger(account_);
}

// A send throttled again and again is not queued forever: past THROTTLED_REQUEUE_SECONDS after
// its acceptance it fails CARRIER_THROTTLED, refunded, as the spec describes that code.
TEST_F(LiveSendingTest, ASendThrottledPastItsRequeueDeadlineFailsRefunded) {
  std::string old = queue(1);
  scratch_.exec("UPDATE messages SET created_at = now() - interval '61 minutes' WHERE id = '" +
                old + "'");
  carrier_.on_send = [&](const FakeCarrier::SentText&) {
    CarrierSendResult too_many;
    too_many.kind = CarrierSendResult::Kind::Throttled;
    too_many.retry_after = std::chrono::seconds(5);
    return too_many;
  };
  sender_(outbound(old));
  EXPECT_EQ(statusOf(old), "FAILED");
  EXPECT_EQ(text("SELECT error_code FROM messages WHERE id = '" + old + "'"), "CARRIER_THROTTLED");
  EXPECT_EQ(costOf(old), 0) << "refunded";
  EXPECT_EQ(events("message.failed"), 1);
  expectBalanceMatchesLedger(account_);
}

// A send that could not reach the carrier (no connection: it surely did not leave) is queued
// again, still charged and with no event, and goes once the carrier answers: one SMS. Found by
// the deployment test, where a container's restart left the carrier's name briefly unresolved.
TEST_F(LiveSendingTest, ASendThatCouldNotReachTheCarrierGoesWhenItAnswers) {
  std::string id = queue(1);
  carrier_.on_send = [&](const FakeCarrier::SentText& text) {
    if (carrier_.sent().size() > 1) return FakeCarrier::acceptedAs("fake_" + text.to);
    CarrierSendResult unreached;
    unreached.kind = CarrierSendResult::Kind::Unavailable;
    return unreached;
  };
  sender_(outbound(id));
  EXPECT_EQ(statusOf(id), "QUEUED") << "never sent: queued again";
  EXPECT_EQ(costOf(id), kPartPrice) << "still charged: it will go";
  EXPECT_EQ(events("message.failed"), 0);
  EXPECT_EQ(workers::sweepQueued(context_, carrier_, carrier_hold_, {}).handed_off, 0)
      << "not before its retry";
  clock_.skip(std::chrono::milliseconds(2100));
  EXPECT_EQ(workers::sweepQueued(context_, carrier_, carrier_hold_, {}).handed_off, 1);
  EXPECT_EQ(statusOf(id), "SENDING");
  EXPECT_EQ(carrier_.sent().size(), 2u) << "the attempt that never left, and the one that did";
  EXPECT_EQ(events("message.sent"), 1);
  expectBalanceMatchesLedger(account_);
}

// ... but not forever: past THROTTLED_REQUEUE_SECONDS after its acceptance it fails
// CARRIER_UNAVAILABLE, refunded.
TEST_F(LiveSendingTest, ASendThatCannotReachTheCarrierPastItsDeadlineFailsRefunded) {
  std::string old = queue(1);
  scratch_.exec("UPDATE messages SET created_at = now() - interval '61 minutes' WHERE id = '" +
                old + "'");
  carrier_.on_send = [&](const FakeCarrier::SentText&) {
    CarrierSendResult unreached;
    unreached.kind = CarrierSendResult::Kind::Unavailable;
    return unreached;
  };
  sender_(outbound(old));
  EXPECT_EQ(statusOf(old), "FAILED");
  EXPECT_EQ(text("SELECT error_code FROM messages WHERE id = '" + old + "'"),
            "CARRIER_UNAVAILABLE");
  EXPECT_EQ(costOf(old), 0) << "refunded";
  EXPECT_EQ(events("message.failed"), 1);
  expectBalanceMatchesLedger(account_);
}

TEST_F(LiveSendingTest, TheReconcilerFailsAHandOffACrashLeftBehindStaleRefundedNeverResent) {
  std::string id = queue(2);
  scratch_.exec(
      "UPDATE messages SET handoff_started_at = now() - interval '2 minutes' WHERE id "
      "= '" +
      id + "'");
  auto counts = workers::reconcile(context_, carrier_, {}, {}, read_everything_);
  EXPECT_EQ(counts.stale, 1);
  EXPECT_EQ(statusOf(id), "FAILED");
  EXPECT_EQ(text("SELECT error_code FROM messages WHERE id = '" + id + "'"), "STALE_QUEUED");
  EXPECT_EQ(costOf(id), 0);
  EXPECT_EQ(count("ledger_entries WHERE kind = 'sms_refund' AND reference_id = '" + id + "'"), 1);
  auto data =
      nlohmann::json::parse(text("SELECT data::text FROM events WHERE type = 'message.failed'"));
  EXPECT_FALSE(data.contains("to")) << "form c has no to and no from";
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, {}, read_everything_).total(), 0)
      << "settled once";
  sender_(outbound(id));
  EXPECT_EQ(carrier_.sent().size(), 0u);
  EXPECT_EQ(events("message.failed"), 1);
  expectBalanceMatchesLedger(account_);
}

// Issue 50: a 5xx or a lost answer after the request was written may hide a text the carrier
// took. Before, it failed CARRIER_UNAVAILABLE or CARRIER_TIMEOUT, refunded, though the handset
// had it. Now it stays QUEUED and charged, is never handed over again, and Telnyx's receipt,
// which names the text but not our id, settles it.
class InDoubtSendTest : public LiveSendingTest {
 protected:
  std::string queueInDoubt() {
    std::string id = queue(1);
    scratch_.exec("UPDATE messages SET body_sha256 = '" + crypto::sha256Hex("Hello") +
                  "' WHERE id = '" + id + "'");
    carrier_.on_send = [](const FakeCarrier::SentText&) {
      CarrierSendResult lost;  // Telnyx took it; a proxy answered 502
      lost.kind = CarrierSendResult::Kind::InDoubt;
      return lost;
    };
    sender_(outbound(id));
    carrier_.on_send = nullptr;
    return id;
  }
  topics::Record receiptNaming(const std::string& carrier_id, const std::string& to,
                               const std::string& body) {
    topics::CarrierReceipt r{carrier_id, "delivered"};
    r.from = number_;
    r.to = to;
    r.text_sha256 = crypto::sha256Hex(body);
    r.parts = 1;
    return {"carrier.receipts", 0, 0, carrier_id, r.toJson().dump(), {}};
  }
};

TEST_F(InDoubtSendTest, ASendWhoseAnswerWasLostStaysChargedUntilItsReceiptSettlesIt) {
  std::string id = queueInDoubt();
  EXPECT_EQ(statusOf(id), "QUEUED");
  EXPECT_EQ(costOf(id), kPartPrice) << "charged: the carrier may have sent it";
  EXPECT_EQ(events("message.failed"), 0);
  sender_(outbound(id));  // the record again
  clock_.skip(std::chrono::seconds(120));
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, {}, read_everything_).total(), 0)
      << "not a stale hand-off, not a lost record";
  workers::sweepQueued(context_, carrier_, carrier_hold_, {});
  EXPECT_EQ(carrier_.sent().size(), 1u) << "never handed over twice";

  receipts_(receiptNaming("car_other_text", "+16132220199", "Another body"));
  EXPECT_EQ(statusOf(id), "QUEUED") << "a receipt for another text claims nothing";
  receipts_(receiptNaming("car_lost_answer", "+16132220199", "Hello"));
  EXPECT_EQ(statusOf(id), "DELIVERED");
  EXPECT_EQ(carrierIdOf(id), "car_lost_answer");
  EXPECT_EQ(events("message.sent"), 1);
  EXPECT_EQ(events("message.delivered"), 1);
  receipts_(receiptNaming("car_lost_answer", "+16132220199", "Hello"));  // Telnyx's retry
  EXPECT_EQ(events("message.delivered"), 1);
  EXPECT_EQ(costOf(id), kPartPrice);
  expectBalanceMatchesLedger(account_);
}

// The carrier's webhook can beat its own lost answer: the receipt is held as early (no message
// has its carrier id yet), and the send marked in doubt afterwards is claimed by it at once.
TEST_F(InDoubtSendTest, AReceiptThatCameBeforeTheLostAnswerSettlesTheSendWhenItIsMarked) {
  std::string id = queue(1);
  scratch_.exec("UPDATE messages SET body_sha256 = '" + crypto::sha256Hex("Hello") +
                "' WHERE id = '" + id + "'");
  receipts_(receiptNaming("car_early", "+16132220199", "Hello"));
  EXPECT_EQ(count("early_receipts"), 1);
  EXPECT_EQ(statusOf(id), "QUEUED");
  carrier_.on_send = [](const FakeCarrier::SentText&) {
    CarrierSendResult lost;
    lost.kind = CarrierSendResult::Kind::InDoubt;
    return lost;
  };
  sender_(outbound(id));
  EXPECT_EQ(statusOf(id), "DELIVERED");
  EXPECT_EQ(carrierIdOf(id), "car_early");
  EXPECT_EQ(count("early_receipts"), 0);
  EXPECT_EQ(events("message.sent"), 1);
  EXPECT_EQ(events("message.delivered"), 1);
  expectBalanceMatchesLedger(account_);
}

TEST_F(InDoubtSendTest, ASendNoReceiptClaimsFailsAtItsDeadlineRefunded) {
  std::string id = queueInDoubt();
  SendPolicy policy;
  clock_.skip(std::chrono::seconds(policy.in_doubt_deadline_seconds - 60));
  EXPECT_EQ(workers::reconcile(context_, carrier_, policy, {}, read_everything_).in_doubt, 0);
  EXPECT_EQ(statusOf(id), "QUEUED");
  clock_.skip(std::chrono::seconds(61));
  EXPECT_EQ(workers::reconcile(context_, carrier_, policy, {}, read_everything_).in_doubt, 1);
  EXPECT_EQ(statusOf(id), "FAILED");
  EXPECT_EQ(text("SELECT error_code FROM messages WHERE id = '" + id + "'"), "CARRIER_TIMEOUT");
  EXPECT_EQ(costOf(id), 0) << "refunded";
  EXPECT_EQ(events("message.failed"), 1);
  EXPECT_EQ(workers::reconcile(context_, carrier_, policy, {}, read_everything_).in_doubt, 0)
      << "once";
  expectBalanceMatchesLedger(account_);
}

TEST_F(LiveSendingTest, TheReconcilerWritesALostQueuedRecordAgainOnceItsWaitIsOver) {
  std::string id = queue(1);
  workers::ReconcilerSettings settings;  // 60 s for a queued message
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, settings, read_everything_).queued, 0)
      << "just queued";
  clock_.skip(std::chrono::seconds(61));
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, settings, read_everything_).queued, 1);
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, settings, read_everything_).queued, 0)
      << "claimed: not written again before its wait";
  auto records = text("SELECT string_agg(payload, ';') FROM outbox WHERE topic = 'sms.outbound'");
  EXPECT_EQ(topics::OutboundSms::parse(records).message_id, id);
  clock_.skip(std::chrono::seconds(61));
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, settings, read_everything_).queued, 1)
      << "still lost";
  sender_(outbound(id));
  clock_.skip(std::chrono::seconds(61));
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, settings, read_everything_).queued, 0)
      << "handed off";
  EXPECT_EQ(carrier_.sent().size(), 1u);
  EXPECT_EQ(count("reconciler_fixes WHERE kind = 'queued' AND times = 2"), 1);
}

TEST_F(LiveSendingTest, TheReconcilerAsksTheCarrierForAReceiptThatNeverCame) {
  std::string id = queue(1);
  sender_(outbound(id));
  ASSERT_EQ(statusOf(id), "SENDING");
  std::atomic<int> asked{0};
  std::string answer = "sending";
  carrier_.on_status = [&](const std::string& carrier_id) {
    ++asked;
    EXPECT_EQ(carrier_id, carrierIdOf(id));
    return CarrierMessageStatus{true, answer, "", ""};
  };
  workers::ReconcilerSettings settings;  // 600 s for a receipt
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, settings, read_everything_).sending, 0);
  EXPECT_EQ(asked.load(), 0) << "a receipt may still come";
  clock_.skip(std::chrono::seconds(601));
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, settings, read_everything_).sending, 0)
      << "not final yet";
  EXPECT_EQ(asked.load(), 1);
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, settings, read_everything_).sending, 0);
  EXPECT_EQ(asked.load(), 1) << "asked again only after the wait";
  answer = "delivered";
  clock_.skip(std::chrono::seconds(601));
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, settings, read_everything_).sending, 1);
  auto payload = text("SELECT payload FROM outbox WHERE topic = 'carrier.receipts'");
  receipts_({"carrier.receipts", 0, 0, carrierIdOf(id), payload, {}});
  EXPECT_EQ(statusOf(id), "DELIVERED") << "the recovered receipt applied as any receipt";
}

TEST_F(LiveSendingTest, TheReconcilerPublishesAgainAnInboundTextThatWasNeverStored) {
  scratch_.exec(
      "INSERT INTO outbox (topic, record_key, payload) VALUES "
      "('sms.inbound', '+16135550400', '{\"v\":1,\"carrier_message_id\":\"car_lost\"}'), "
      "('sms.inbound', '+16135550400', '{\"v\":1,\"carrier_message_id\":\"car_kept\"}')");
  // Both published: the relay's position passed them.
  publishEverything();
  scratch_.exec(
      "INSERT INTO messages (id, account_id, direction, from_number, to_number, status, "
      "mode, carrier_message_id) VALUES ('msg_kept', '" +
      account_ +
      "', 'INBOUND', '+16132220199', '+16135550400', 'RECEIVED', 'LIVE', "
      "'car_kept')");
  clock_.skip(std::chrono::seconds(61));
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, {}, read_everything_).inbound, 1);
  EXPECT_EQ(count("outbox_pending WHERE payload LIKE '%car_lost%'"), 1);
  EXPECT_EQ(count("outbox_pending WHERE payload LIKE '%car_kept%'"), 0);
  // Once published, the copy is a row like the first: the claim on the text keeps both from
  // being copied again within the wait.
  publishEverything();
  clock_.skip(std::chrono::seconds(30));
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, {}, read_everything_).inbound, 0);
  EXPECT_EQ(count("outbox WHERE payload LIKE '%car_lost%'"), 2);
}

TEST_F(LiveSendingTest, TheReconcilerWritesAgainAnEventNoEndpointSaw) {
  scratch_.exec(
      "INSERT INTO webhooks (id, account_id, url, events, signing_secret) VALUES "
      "('wh_1', '" +
      account_ + "', 'https://example.ca/hook', '[\"message.sent\"]', 'whsec_x')");
  std::string lost, seen;
  {
    db::Session sql(database_);
    soci::transaction tx(*sql);
    lost = topics::raiseEvent(*sql, {account_, "message.sent", true, {{"message_id", "m1"}}});
    seen = topics::raiseEvent(*sql, {account_, "message.sent", true, {{"message_id", "m2"}}});
    topics::raiseEvent(*sql, {account_, "message.queued", true, {{"message_id", "m3"}}});
    tx.commit();
  }
  scratch_.exec(
      "INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, attempt, "
      "success) VALUES ('whd_1', 'wh_1', '" +
      seen + "', 'message.sent', 1, true)");
  workers::ReconcilerSettings settings;  // 300 s for an event
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, settings, read_everything_).events, 0);
  clock_.skip(std::chrono::seconds(301));
  EXPECT_EQ(workers::reconcile(context_, carrier_, {}, settings, read_everything_).events, 1)
      << "only the event owed and never attempted; the queued one is not subscribed";
  EXPECT_EQ(count("outbox WHERE topic = 'events' AND payload LIKE '%" + lost + "%'"), 2);
  EXPECT_EQ(count("outbox WHERE topic = 'events' AND payload LIKE '%" + seen + "%'"), 1);
}

TEST_F(LiveSendingTest, TheChargeIsSettledOnThePartsTheCarrierCounted) {
  carrier_.on_send = [](const FakeCarrier::SentText& sms) {
    return FakeCarrier::acceptedAs("car_" + sms.text + sms.to, 3);
  };
  long long before = balance(account_);
  std::string more = queue(2);
  sender_(outbound(more));
  EXPECT_EQ(costOf(more), 3 * kPartPrice);
  EXPECT_EQ(balance(account_), before - 3LL * kPartPrice);
  EXPECT_EQ(nlohmann::json::parse(text("SELECT data::text FROM events WHERE type = "
                                       "'message.sent'"))["cost_cents"],
            3 * kPartPrice);

  carrier_.on_send = [](const FakeCarrier::SentText& sms) {
    return FakeCarrier::acceptedAs("car_fewer" + sms.to);
  };
  std::string fewer = queue(4, "now()", "+16132220198");
  sender_(outbound(fewer));
  EXPECT_EQ(costOf(fewer), kPartPrice);
  EXPECT_EQ(text("SELECT segment_count::text FROM messages WHERE id = '" + fewer + "'"), "1");
  expectBalanceMatchesLedger(account_);
}

TEST_F(LiveSendingTest, WhenTheBalanceCannotCoverMorePartsTheAcceptedChargeStands) {
  carrier_.on_send = [](const FakeCarrier::SentText&) {
    return FakeCarrier::acceptedAs("car_more_than_covered", 3);
  };
  std::string id = queue(2);
  {
    db::Session sql(database_);
    db::postLedgerEntry(*sql,
                        {account_, -balance(account_), "sms_outbound", newId("spent"), "SMS"});
  }
  sender_(outbound(id));
  EXPECT_EQ(statusOf(id), "SENDING");
  EXPECT_EQ(costOf(id), 2 * kPartPrice);
  EXPECT_EQ(balance(account_), 0);
  EXPECT_EQ(count("ledger_entries WHERE kind = 'sms_adjustment'"), 0);
  EXPECT_EQ(nlohmann::json::parse(text("SELECT data::text FROM events WHERE type = "
                                       "'message.sent'"))["cost_cents"],
            2 * kPartPrice)
      << "the event tells the cost that stands";
  expectBalanceMatchesLedger(account_);
}

TEST_F(LiveSendingTest, AReceiptBeforeTheSendResultIsHeldThenAppliedInOrder) {
  std::string id = queue(1);
  carrier_.on_send = [&](const FakeCarrier::SentText&) {
    receipts_(receipt("car_early", "delivered"));  // the receipt overtakes the answer
    return FakeCarrier::acceptedAs("car_early");
  };
  sender_(outbound(id));
  EXPECT_EQ(statusOf(id), "DELIVERED");
  EXPECT_EQ(count("early_receipts"), 0);
  EXPECT_EQ(count("outbox o WHERE topic = 'events' AND payload::jsonb->>'type' = "
                  "'message.delivered' AND o.id > (SELECT id FROM outbox WHERE topic = 'events' "
                  "AND payload::jsonb->>'type' = 'message.sent')"),
            1)
      << "message.sent is published before message.delivered";
  receipts_(receipt("car_early", "delivered"));
  EXPECT_EQ(events("message.delivered"), 1) << "a late duplicate changes nothing";
}

// The sender's batch (the records of one poll): each message handed off once, in order, and the
// carrier's answers recorded together; the receipt worker's batch applies a poll's receipts in
// one transaction, a duplicate inside it changing nothing.
TEST_F(LiveSendingTest, BatchesHandEachMessageOffOnceAndApplyEachReceiptOnce) {
  std::string first = queue(1), second = queue(1, "now()", "+16132220198"), third = queue(1);
  auto outcomes = sender_.applyBatch({outbound(first), outbound(second), outbound(third)});
  ASSERT_EQ(outcomes.size(), 3u);
  for (const auto& outcome : outcomes) EXPECT_TRUE(outcome.applied);
  ASSERT_EQ(carrier_.sent().size(), 3u);
  EXPECT_EQ(carrier_.sent()[1].to, "+16132220198") << "handed off in the records' order";
  for (const auto& id : {first, second, third}) EXPECT_EQ(statusOf(id), "SENDING");
  EXPECT_EQ(events("message.sent"), 3);

  auto replayed = sender_.applyBatch({outbound(first), outbound(second), outbound(third)});
  for (const auto& outcome : replayed) EXPECT_FALSE(outcome.applied) << "a replay changes nothing";
  EXPECT_EQ(carrier_.sent().size(), 3u) << "one SMS each";

  auto applied = receipts_.applyBatch(
      {receipt(carrierIdOf(third), "delivered"), receipt(carrierIdOf(second), "delivery_failed"),
       receipt(carrierIdOf(first), "delivered"), receipt(carrierIdOf(third), "delivered")});
  ASSERT_EQ(applied.size(), 4u);
  EXPECT_TRUE(applied[0].applied);
  EXPECT_TRUE(applied[1].applied);
  EXPECT_TRUE(applied[2].applied);
  EXPECT_FALSE(applied[3].applied) << "the duplicate in the same batch";
  EXPECT_EQ(statusOf(first), "DELIVERED");
  EXPECT_EQ(statusOf(second), "UNDELIVERED");
  EXPECT_EQ(statusOf(third), "DELIVERED");
  EXPECT_EQ(events("message.delivered"), 2);
  EXPECT_EQ(costOf(second), kPartPrice) << "an undelivered message keeps its charge";
}

// A record that cannot be applied makes its batch apply nothing: the consume loop then applies
// the records one by one, and only that one is set aside.
TEST_F(LiveSendingTest, AReceiptBatchWithABrokenRecordAppliesNothing) {
  std::string id = queue(1);
  sender_(outbound(id));
  topics::Record broken{"carrier.receipts",
                        0,
                        1,
                        "k",
                        R"({"v":1,"carrier_message_id":"c","status":"teleported"})",
                        {}};
  EXPECT_THROW(receipts_.applyBatch({receipt(carrierIdOf(id), "delivered"), broken}),
               topics::PermanentError);
  EXPECT_EQ(statusOf(id), "SENDING");
  EXPECT_EQ(events("message.delivered"), 0);
}

// A 429 in the middle of a batch holds the rest of it, as it holds the next records: they stay
// QUEUED for the sweep, charged, and nothing more goes into the carrier's window.
TEST_F(LiveSendingTest, ACarriers429InABatchHoldsTheRestOfIt) {
  std::string sent = queue(1), throttled = queue(1), held = queue(1, "now()", "+16132220198");
  carrier_.on_send = [&](const FakeCarrier::SentText& text) {
    if (carrier_.sent().size() != 2) return FakeCarrier::acceptedAs("fake_" + text.to);
    CarrierSendResult too_many;
    too_many.kind = CarrierSendResult::Kind::Throttled;
    too_many.retry_after = std::chrono::seconds(30);
    return too_many;
  };
  sender_.applyBatch({outbound(sent), outbound(throttled), outbound(held)});
  EXPECT_EQ(carrier_.sent().size(), 2u) << "nothing sent into the carrier's window";
  EXPECT_EQ(statusOf(sent), "SENDING");
  EXPECT_EQ(statusOf(throttled), "QUEUED");
  EXPECT_EQ(costOf(throttled), kPartPrice);
  EXPECT_EQ(statusOf(held), "QUEUED");
  EXPECT_EQ(costOf(held), kPartPrice) << "still charged: it will go";
}

// The carrier has the text; losing its answer to a database hiccup would turn a sent SMS into
// a FAILED (STALE_QUEUED) one, refunded. PostgreSQL drops every connection while the carrier
// is taking the text: the sender records the answer on a fresh one.
TEST_F(LiveSendingTest, TheCarriersAnswerIsRecordedAfterTheDatabaseDroppedTheConnections) {
  std::string id = queue(1);
  carrier_.on_send = [&](const FakeCarrier::SentText&) {
    scratch_.exec(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
        "current_database() AND pid <> pg_backend_pid()");
    return FakeCarrier::acceptedAs("car_after_drop");
  };
  sender_(outbound(id));
  EXPECT_EQ(statusOf(id), "SENDING");
  EXPECT_EQ(carrierIdOf(id), "car_after_drop");
  EXPECT_EQ(events("message.sent"), 1);
  EXPECT_EQ(costOf(id), kPartPrice);
  EXPECT_EQ(carrier_.sent().size(), 1u);
  expectBalanceMatchesLedger(account_);
}

// The receipt worker and the sender are separate processes: a receipt can arrive while the
// sender is still recording the carrier's answer, before or after any of its statements. Each
// message here has its receipt applied on another thread, started as the carrier answers and
// spread over the next few milliseconds. Every receipt must end applied: none dropped as "late"
// and none held where no sender will look for it again.
TEST_F(LiveSendingTest, AReceiptRacingTheSendResultIsNeitherDroppedNorStranded) {
  constexpr int kMessages = 80;
  std::vector<std::string> ids;
  ids.reserve(kMessages);
  for (int i = 0; i < kMessages; ++i) ids.push_back(queue(1));
  std::vector<std::thread> receipt_threads;
  std::atomic<int> receipt_errors{0};
  int sent = 0;
  carrier_.on_send = [&](const FakeCarrier::SentText&) {
    std::string carrier_id = "car_race_" + std::to_string(sent);
    auto delay = std::chrono::microseconds((sent * 397) % 4000);
    ++sent;
    receipt_threads.emplace_back([this, carrier_id, delay, &receipt_errors] {
      std::this_thread::sleep_for(delay);
      try {
        receipts_(receipt(carrier_id, "delivered"));
      } catch (const std::exception& e) {
        ++receipt_errors;
        ADD_FAILURE() << carrier_id << ": " << e.what();
      }
    });
    return FakeCarrier::acceptedAs(carrier_id);
  };
  for (const auto& id : ids) sender_(outbound(id));
  for (auto& thread : receipt_threads) thread.join();
  EXPECT_EQ(receipt_errors.load(), 0);
  EXPECT_EQ(count("messages WHERE id LIKE 'msg%' AND status = 'SENDING'"), 0)
      << "a receipt was dropped or stranded";
  EXPECT_EQ(count("messages WHERE status = 'DELIVERED'"), kMessages);
  EXPECT_EQ(count("early_receipts"), 0);
  EXPECT_EQ(events("message.delivered"), kMessages);
}

TEST_F(LiveSendingTest, ReceiptsCountTowardTheUndeliverableNumberAndDuplicatesDoNot) {
  std::string to = "+16132220177";
  for (int i = 0; i < 3; ++i) {
    std::string id = queue(1, "now()", to);
    sender_(outbound(id));
    auto failed = receipt(carrierIdOf(id), "delivery_failed");
    for (int delivery = 0; delivery < 3; ++delivery) receipts_(failed);
    EXPECT_EQ(statusOf(id), "UNDELIVERED");
    EXPECT_EQ(costOf(id), kPartPrice) << "an undelivered message keeps its charge";
  }
  EXPECT_EQ(query("SELECT consecutive_failures FROM undeliverable_numbers WHERE phone_number = '" +
                  to + "'"),
            3);
  EXPECT_EQ(events("message.undelivered"), 3);
  std::string ok = queue(1, "now()", to);
  sender_(outbound(ok));
  receipts_(receipt(carrierIdOf(ok), "delivered"));
  EXPECT_EQ(query("SELECT consecutive_failures FROM undeliverable_numbers WHERE phone_number = '" +
                  to + "'"),
            0)
      << "a delivery resets the count";
  expectBalanceMatchesLedger(account_);
}

TEST_F(LiveSendingTest, AFailedReceiptRefundsTheAttemptOnce) {
  std::string id = queue(2);
  sender_(outbound(id));
  auto failed = receipt(carrierIdOf(id), "sending_failed");
  receipts_(failed);
  receipts_(failed);
  EXPECT_EQ(statusOf(id), "FAILED");
  EXPECT_EQ(count("ledger_entries WHERE kind = 'sms_refund' AND reference_id = '" + id + "'"), 1);
  EXPECT_EQ(costOf(id), 0);
  expectBalanceMatchesLedger(account_);
  // Form b of message.failed, as the outbox publishes it.
  auto record = nlohmann::json::parse(
      text("SELECT payload FROM outbox WHERE topic = 'events' AND payload::jsonb->>'type' = "
           "'message.failed'"));
  EXPECT_EQ(record["account_id"], account_);
  EXPECT_EQ(record["livemode"], true);
  EXPECT_EQ(record["created"].get<std::string>().size(), 24u);
  const auto& data = record["data"];
  EXPECT_EQ(data["message_id"], id);
  EXPECT_EQ(data["from"], number_);
  EXPECT_EQ(data["to"], "+16132220199");
  EXPECT_EQ(data["status"], "sending_failed");
  EXPECT_EQ(data["message_status"], "FAILED");
  EXPECT_EQ(data["error_code"], "30005");
  EXPECT_EQ(data["errors"], nlohmann::json::array({{{"code", "30005"}}}));
  EXPECT_FALSE(data.contains("error_message")) << "form b has no error_message";
  EXPECT_EQ(count("undeliverable_numbers WHERE phone_number = '+16132220199' AND "
                  "consecutive_failures = 1"),
            1);
}

TEST_F(LiveSendingTest, ManyFailuresWarnThenPauseOncePerPeriod) {
  history(50, 6);  // 12 %: over the 10 % warning, under the 25 % pause
  reviewHealth();
  reviewHealth();
  EXPECT_EQ(events("account.delivery_warning"), 1) << "once per period";
  auto warning = nlohmann::json::parse(
      text("SELECT data::text FROM events WHERE type = 'account.delivery_warning'"));
  EXPECT_EQ(warning, nlohmann::json({{"failure_rate_pct", 12}, {"failed", 6}, {"sample", 50}}));
  EXPECT_EQ(events("account.sending_paused"), 0);

  history(50, 20);  // the newest 50: 40 % failed
  reviewHealth();
  reviewHealth();
  EXPECT_EQ(events("account.sending_paused"), 1);
  auto paused = nlohmann::json::parse(
      text("SELECT data::text FROM events WHERE type = 'account.sending_paused'"));
  EXPECT_EQ(paused["channel"], "sms");
  EXPECT_EQ(paused["reason"], "FAILURE_RATE");
  db::Session sql(database_);
  auto now = std::chrono::system_clock::now();
  auto pause = messaging::activeSendingPause(*sql, account_, now);
  ASSERT_TRUE(pause.has_value());
  EXPECT_EQ(pause->reason, "FAILURE_RATE");
  EXPECT_EQ(pause->paused_until, paused["paused_until"]);
  EXPECT_FALSE(messaging::activeSendingPause(
      *sql, account_, now + std::chrono::hours(SendPolicy{}.pause_hours) + std::chrono::minutes(1)))
      << "a pause ends after its period";
}

// smsgw-admin account resume-sending: staff end a pause before its period is over.
TEST_F(LiveSendingTest, StaffLiftAPauseBeforeItsEnd) {
  history(50, 20);
  reviewHealth();
  db::Session sql(database_);
  auto now = std::chrono::system_clock::now();
  ASSERT_TRUE(messaging::activeSendingPause(*sql, account_, now).has_value());
  EXPECT_TRUE(messaging::liftSendingPause(database_, account_));
  EXPECT_FALSE(messaging::activeSendingPause(*sql, account_, now).has_value());
  EXPECT_FALSE(messaging::liftSendingPause(database_, "acc_nobody"));
  EXPECT_EQ(events("account.sending_paused"), 1) << "lifting raises nothing";
}

TEST_F(LiveSendingTest, FewerThanAFullSampleIsNotJudged) {
  history(20, 20);
  reviewHealth();
  EXPECT_EQ(events("account.delivery_warning"), 0);
  EXPECT_EQ(events("account.sending_paused"), 0);
}

TEST_F(LiveSendingTest, ManyOptOutsPauseSending) {
  SendPolicy policy;
  policy.opt_out_pause_min_sends = 20;
  history(20, 0);
  for (int i = 0; i < 2; ++i) {
    scratch_.exec(
        "INSERT INTO opt_outs (id, account_id, mode, phone_number, from_number) VALUES "
        "('" +
        newId("oo") + "', '" + account_ + "', 'LIVE', '+1613222" + std::to_string(1000 + i) +
        "', '" + number_ + "')");
  }
  db::Session sql(database_);
  auto now = std::chrono::system_clock::now();
  messaging::reviewOptOutRate(*sql, account_, policy, now + std::chrono::hours(25));
  EXPECT_EQ(events("account.sending_paused"), 0) << "a day later, none of them is in the window";
  messaging::reviewOptOutRate(*sql, account_, policy, now);
  EXPECT_EQ(events("account.sending_paused"), 1) << "2 opt-outs of 20 recipients: 10 % > 5 %";
  EXPECT_EQ(messaging::activeSendingPause(*sql, account_, now)->reason, "OPT_OUT_RATE");
}

TEST_F(LiveSendingTest, SpendOverTheThresholdWarnsOncePerDay) {
  for (int i = 0; i < 3; ++i) {
    db::Session sql(database_);
    db::postLedgerEntry(*sql, {account_, -200, "sms_outbound", newId("msg"), "SMS"});
  }
  db::Session sql(database_);
  auto now = std::chrono::system_clock::now();
  EXPECT_EQ(messaging::raiseSpendWarnings(*sql, {}, now + std::chrono::hours(2)), 0)
      << "two hours later the spend is not the last hour's";
  EXPECT_EQ(messaging::raiseSpendWarnings(*sql, {}, now), 1) << "600 cents in the hour > 500";
  EXPECT_EQ(messaging::raiseSpendWarnings(*sql, {}, now), 0);
  auto warning = nlohmann::json::parse(
      text("SELECT data::text FROM events WHERE type = 'account.spend_warning'"));
  EXPECT_EQ(warning, nlohmann::json({{"spent_last_hour_cents", 600},
                                     {"typical_daily_cents", 0},
                                     {"threshold_cents", 500}}));
}

TEST_F(LiveSendingTest, BodiesArePurgedAfterTheRetentionPeriod) {
  std::string old_id = queue(1);
  std::string recent = queue(1, "now()", "+16132220111");
  scratch_.exec("UPDATE messages SET created_at = now() - interval '91 days' WHERE id = '" +
                old_id + "'");
  db::Session sql(database_);
  auto now = std::chrono::system_clock::now();
  EXPECT_EQ(messaging::purgeExpiredBodies(*sql, {}, 1000, now), 1);
  EXPECT_EQ(
      text("SELECT (body IS NULL AND body_purged)::text FROM messages WHERE id = '" + old_id + "'"),
      "true");
  EXPECT_EQ(text("SELECT body FROM messages WHERE id = '" + recent + "'"), "Hello");
  EXPECT_EQ(messaging::purgeExpiredBodies(*sql, {}, 1000, now), 0);
  EXPECT_EQ(messaging::purgeExpiredBodies(*sql, {}, 1000, now + std::chrono::days(91)), 1)
      << "91 days on, the recent one's body goes too";
}

TEST_F(LiveSendingTest, PublishedOutboxRowsAreDeletedAfterTheirRetentionAndUnpublishedNever) {
  scratch_.exec("DELETE FROM outbox");
  scratch_.exec(
      "INSERT INTO outbox (topic, record_key, payload, created_at) VALUES "
      "('events', 'old', '{}', now() - interval '25 hours'), "
      "('events', 'old', '{}', now() - interval '25 hours'), "
      "('events', 'old', '{}', now() - interval '25 hours'), "
      "('events', 'recent', '{}', now() - interval '23 hours')");
  publishEverything();
  // Written by a later transaction, so after the position: not published, however old.
  scratch_.exec(
      "INSERT INTO outbox (topic, record_key, payload, created_at) VALUES "
      "('events', 'stuck', '{}', now() - interval '3 days')");
  db::Session sql(database_);
  auto now = std::chrono::system_clock::now();
  EXPECT_EQ(messaging::purgePublishedOutbox(*sql, {}, 2, now), 2) << "at most a batch";
  EXPECT_EQ(messaging::purgePublishedOutbox(*sql, {}, 2, now), 1);
  EXPECT_EQ(messaging::purgePublishedOutbox(*sql, {}, 2, now), 0);
  EXPECT_EQ(text("SELECT string_agg(record_key, ',' ORDER BY id) FROM outbox"), "recent,stuck");
}

TEST_F(LiveSendingTest, AccountEventsAreEmailedToTheOwnerOnce) {
  history(50, 30);
  reviewHealth();
  db::Session sql(database_);
  RecordingMailer mailer;
  soci::rowset<std::string> rows =
      (sql->prepare << "SELECT jsonb_build_object('v', 1, 'id', id, "
                       "'type', type, 'created', iso_ts(created_at), "
                       "'account_id', account_id, 'livemode', "
                       "livemode, 'data', data)::text FROM events ORDER BY type");
  std::vector<topics::EventRecord> events;
  for (const auto& row : rows) events.push_back(topics::EventRecord::parse(row));
  ASSERT_EQ(events.size(), 2u) << "a delivery warning and a pause";
  for (int replay = 0; replay < 2; ++replay) {
    for (const auto& event : events) webhooks::emailAccountEvent(*sql, mailer, event);
  }
  auto sent = mailer.sent();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].to, account_ + "@ex.ca");
  EXPECT_NE(sent[1].subject.find("account.sending_paused"), std::string::npos);
}
