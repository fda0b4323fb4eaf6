// Horizontally scaled worker pools on a whole pipeline of the real binaries: 3 senders, 3 receipt
// workers, 2 webhook dispatchers and 2 inbound workers share their topics through consumer groups
// and their time-based work through SKIP LOCKED. In the middle of 5,000 LIVE sends one instance
// of each pool is killed with SIGKILL and a new one started (the groups rebalance twice): every
// message ends once, no handset gets a text twice, the money adds up and every event reaches its
// webhook (once its duplicates are set aside by webhook-id, as receivers do).
#include <gtest/gtest.h>

#include <atomic>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "adapters/http_client.h"
#include "tests/integration/pipeline_fixture.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

class ScaleOutTest : public PipelineTest {
 protected:
  ScaleOutTest()
      : PipelineTest({{"STALE_HANDOFF_SECONDS", "5"},
                      {"RECONCILER_INTERVAL_MS", "1000"},
                      {"RECONCILE_QUEUED_AFTER_SECONDS", "20"}}) {}
};

}  // namespace

TEST_F(ScaleOutTest, PoolsShareTheWorkAndLosingAnInstanceOfEachLosesNothing) {
  constexpr int kCustomers = 5, kSendsEach = 1000, kInbound = 100;
  const std::map<Worker, int> pools = {{Worker::Sender, 3},
                                       {Worker::Receipt, 3},
                                       {Worker::WebhookDispatcher, 2},
                                       {Worker::InboundKeyword, 2}};
  for (const auto& [worker, size] : pools) {
    while (stack_.instances(worker) < static_cast<size_t>(size)) stack_.addWorker(worker);
  }
  std::vector<LiveCustomer> customers;
  for (int i = 0; i < kCustomers; ++i) {
    customers.push_back(factory_.make(3, 100));
    subscribe(customers.back(),
              R"(["message.queued", "message.sent", "message.delivered", "message.received"])");
  }

  auto started = std::chrono::steady_clock::now();
  std::vector<std::thread> clients;
  for (const auto& customer : customers) {
    clients.emplace_back([&] { send(customer, kSendsEach, "p"); });
  }
  clients.emplace_back([&] {
    for (int i = 0; i < kInbound; ++i) {
      const auto& customer = customers[static_cast<size_t>(i) % customers.size()];
      nlohmann::json sms = {{"from", customer.recipients[static_cast<size_t>(i)]},
                            {"to", customer.numbers[1]},
                            {"text", "Hello " + std::to_string(i)}};
      httpRequest("POST", stack_.simUrl() + "/sim/inbound", {{"Content-Type", "application/json"}},
                  sms.dump(), std::chrono::seconds(10));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  // Mid-run, one instance of each pool dies and a new one joins.
  ASSERT_TRUE(eventually([&] { return query("SELECT count(*) FROM messages") >= 2000; }, 300));
  for (const auto& [worker, size] : pools) {
    stack_.worker(worker, 0).kill9();
    stack_.addWorker(worker);
  }
  for (auto& client : clients) client.join();
  double sending_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  constexpr int kSends = kCustomers * kSendsEach;
  bool finished = eventually(
      [&] {
        return query(
                   "SELECT count(*) FROM messages WHERE direction = 'OUTBOUND' AND status IN "
                   "('QUEUED', 'SENDING')") == 0 &&
               query("SELECT count(*) FROM messages WHERE direction = 'INBOUND'") == kInbound &&
               eventsNotDelivered() == 0;
      },
      300);
  double total_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "scale-out: " << kSends << " sends accepted in " << sending_seconds
            << " s, all settled after " << total_seconds << " s ("
            << static_cast<int>(kSends / total_seconds) << " messages/s end to end); "
            << statusCounts() << std::endl;
  ASSERT_TRUE(finished) << statusCounts() << "; events not delivered " << eventsNotDelivered();

  Outcome o = outcome(customers);
  EXPECT_EQ(o.outbound, kSends);
  // A hand-off in flight in the killed sender cannot be known to have reached the carrier: it
  // fails STALE_QUEUED, refunded, and is never sent again (DESIGN.md rule 4). At most one per
  // consume loop and one for the paced sweep.
  EXPECT_LE(o.stale, 7);
  EXPECT_EQ(o.delivered, kSends - o.stale);
  EXPECT_EQ(o.failed_charged, 0);
  EXPECT_EQ(o.texted_twice, 0);
  EXPECT_GE(o.carrier_texts, kSends - o.stale);
  EXPECT_EQ(o.off_ledger, 0);
  std::cout << "scale-out: " << o.events << " events, " << o.deliveries << " deliveries, "
            << o.distinct_deliveries << " distinct" << std::endl;
  EXPECT_EQ(o.distinct_deliveries, o.events);
}
