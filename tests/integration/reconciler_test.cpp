// The stuck-work reconciler (pipeline rule 6) on a whole pipeline of the real binaries: the
// broker is restarted while records wait on it (the embedded broker keeps nothing), and the
// reconciler brings everything to its end: queued messages are sent, receipts the carrier sent
// are asked for again, inbound texts are stored, and every event reaches its webhook.
#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "adapters/http_client.h"
#include "tests/integration/pipeline_fixture.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

class ReconcilerTest : public PipelineTest {
 protected:
  ReconcilerTest()
      : PipelineTest({{"RECONCILER_INTERVAL_MS", "500"},
                      {"RECONCILE_QUEUED_AFTER_SECONDS", "3"},
                      {"RECONCILE_SENDING_AFTER_SECONDS", "3"},
                      {"RECONCILE_INBOUND_AFTER_SECONDS", "3"},
                      {"RECONCILE_EVENTS_AFTER_SECONDS", "3"}}) {}

  void text(const std::string& from, const std::string& to, const std::string& body) {
    nlohmann::json sms = {{"from", from}, {"to", to}, {"text", body}};
    EXPECT_EQ(
        httpRequest("POST", stack_.simUrl() + "/sim/inbound",
                    {{"Content-Type", "application/json"}}, sms.dump(), std::chrono::seconds(10))
            .status,
        202);
  }
  long long fixes(const std::string& kind) {
    return query("SELECT count(*) FROM reconciler_fixes WHERE kind = '" + kind + "'");
  }
};

}  // namespace

TEST_F(ReconcilerTest, WorkWhoseRecordsTheBrokerLostIsFinishedByTheReconciler) {
  constexpr int kSending = 50, kQueued = 150, kInbound = 10;
  auto customer = factory_.make(3, 100);
  subscribe(customer,
            R"(["message.queued", "message.sent", "message.delivered", "message.received"])");
  // Receipts wait on the broker: the carrier took 50 texts and reported them delivered.
  stack_.stopWorkers(Worker::Receipt);
  send(customer, kSending, "sending");
  ASSERT_TRUE(eventually(
      [&] { return query("SELECT count(*) FROM messages WHERE status = 'SENDING'") == kSending; },
      60));
  // Sends, their events and inbound texts wait on the broker too.
  stack_.stopWorkers(Worker::Sender);
  stack_.stopWorkers(Worker::WebhookDispatcher);
  stack_.stopWorkers(Worker::InboundKeyword);
  send(customer, kQueued, "queued");
  for (int i = 0; i < kInbound; ++i)
    text(customer.recipients[static_cast<size_t>(i)], customer.numbers[0],
         "Hi " + std::to_string(i));
  ASSERT_TRUE(eventually(
      [&] {
        return query("SELECT count(*) FROM outbox_pending") == 0 &&
               query("SELECT count(*) FROM outbox WHERE topic = 'carrier.receipts'") >= kSending &&
               query("SELECT count(*) FROM outbox WHERE topic = 'sms.inbound'") == kInbound;
      },
      60))
      << "unpublished " << query("SELECT count(*) FROM outbox_pending") << ", receipts "
      << query("SELECT count(*) FROM outbox WHERE topic = 'carrier.receipts'") << ", inbound "
      << query("SELECT count(*) FROM outbox WHERE topic = 'sms.inbound'");

  // The brokers go away with every record; everything starts again on empty ones.
  for (Worker worker : PipelineStack::allWorkers()) stack_.stopWorkers(worker);
  stack_.api().terminate();
  stack_.replaceBrokersWithEmptyOnes();
  stack_.api().start();
  for (Worker worker : PipelineStack::allWorkers()) stack_.startWorkers(worker);

  bool finished = eventually(
      [&] {
        return query(
                   "SELECT count(*) FROM messages WHERE direction = 'OUTBOUND' AND status = "
                   "'DELIVERED'") == kSending + kQueued &&
               query("SELECT count(*) FROM messages WHERE direction = 'INBOUND'") == kInbound &&
               eventsNotDelivered() == 0;
      },
      120);
  std::cout << "reconciler fixes: queued " << fixes("queued") << ", sending " << fixes("sending")
            << ", inbound " << fixes("inbound") << ", events " << fixes("event") << std::endl;
  ASSERT_TRUE(finished) << "undelivered events " << eventsNotDelivered();
  // Every message whose record the broker lost was written again, but one whose pacing slot fell
  // a moment after its acceptance: that one is the paced sweep's to send, and needs no record.
  // (The reconciler may also have pushed on messages that merely waited longer than its 3 s.)
  auto unfixed = [&](const char* tag, const char* kind) {
    return query(std::string("SELECT count(*) FROM messages m WHERE body LIKE '") + tag +
                 "%' AND NOT EXISTS (SELECT 1 FROM reconciler_fixes f WHERE f.kind = '" + kind +
                 "' AND f.ref = m.id)" +
                 (std::string(kind) == "queued" ? " AND send_at <= created_at" : ""));
  };
  EXPECT_EQ(unfixed("queued", "queued"), 0) << "a lost sms.outbound record not written again";
  EXPECT_EQ(unfixed("sending", "sending"), 0) << "a lost receipt not asked of the carrier";
  EXPECT_EQ(fixes("inbound"), kInbound);
  EXPECT_GE(fixes("event"), kQueued) << "at least the message.queued events the broker lost";

  // No handset got a text twice; the money adds up; each event reached the webhook (receivers
  // dedupe on webhook-id, which a re-written event keeps).
  auto texts = nlohmann::json::parse(
      httpRequest("GET", stack_.simUrl() + "/sim/messages", {}, "", std::chrono::seconds(10)).body);
  std::set<std::string> bodies;
  for (const auto& sms : texts["data"]) bodies.insert(sms["text"].get<std::string>());
  EXPECT_EQ(bodies.size(), static_cast<size_t>(kSending + kQueued));
  EXPECT_EQ(texts["data"].size(), static_cast<size_t>(kSending + kQueued));
  EXPECT_EQ(query("SELECT balance_cents FROM accounts WHERE id = '" + customer.id + "'"),
            query("SELECT sum(amount_cents) FROM ledger_entries WHERE account_id = '" +
                  customer.id + "'"));
  std::set<std::string> event_ids;
  for (const auto& request : receiver_.waitFor(0, std::chrono::seconds(1)))
    event_ids.insert(request.headers.at("webhook-id"));
  EXPECT_EQ(static_cast<long long>(event_ids.size()),
            query("SELECT count(*) FROM events e JOIN webhooks w ON w.account_id = e.account_id "
                  "AND w.events ? e.type"));
}

// A sender away for longer than the reconciler's wait comes back to a backlog: its consumers read
// it, and its reconciler, which runs from the start, takes none of it for lost (it used to write
// every such message again, and count each as a loss).
TEST_F(ReconcilerTest, RecordsWaitingForARestartedSenderAreReadNotWrittenAgain) {
  constexpr int kWaiting = 100;
  auto customer = factory_.make(3, 100);
  stack_.stopWorkers(Worker::Sender);
  send(customer, kWaiting, "waiting");
  ASSERT_TRUE(eventually([&] { return query("SELECT count(*) FROM outbox_pending") == 0; }, 60));
  std::this_thread::sleep_for(std::chrono::seconds(4));  // past the 3 s wait: lost, by age alone
  stack_.startWorkers(Worker::Sender);
  ASSERT_TRUE(eventually(
      [&] { return query("SELECT count(*) FROM messages WHERE status = 'DELIVERED'") == kWaiting; },
      120))
      << statusCounts();
  EXPECT_EQ(fixes("queued"), 0) << "lag taken for loss";
  auto texts = nlohmann::json::parse(
      httpRequest("GET", stack_.simUrl() + "/sim/messages", {}, "", std::chrono::seconds(10)).body);
  EXPECT_EQ(texts["data"].size(), static_cast<size_t>(kWaiting));
}
