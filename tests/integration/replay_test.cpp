// Replay (pipeline rule 8) on a whole pipeline of the real binaries with a Kafka of its own:
// - after 2,000 LIVE messages (receipts, inbound texts, rent and webhook events) ran to the end,
//   replaying every topic from offset 0 into the live groups changes nothing: no new text at the
//   carrier, no ledger row, no webhook delivery, no status; a replay into a group the broker
//   says has a member (one our registry does not know) is refused;
// - after an incident that lost the receipts' effects (the database restored from a snapshot
//   taken while receipts piled up), replaying carrier.receipts from a time restores exactly them.
#include "topics/replay.h"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "adapters/http_client.h"
#include "domain/clock.h"
#include "domain/ids.h"
#include "tests/integration/pipeline_fixture.h"
#include "topics/catalogue.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

constexpr const char* kMessageEvents =
    R"(["message.queued", "message.sent", "message.delivered", "message.received", "message.failed"])";

// What a replay must not change, read from the database and the carrier simulator.
struct Footprint {
  long long texts_at_carrier = 0;
  long long ledger_rows = 0;
  long long ledger_sum = 0;
  long long deliveries = 0;
  long long events = 0;
  std::string statuses;  // a digest of every message's status, error and cost
  std::string numbers;   // a digest of every number's status and rent due date
  long long opt_outs = 0;

  bool operator==(const Footprint&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Footprint& f) {
  return out << "{texts " << f.texts_at_carrier << ", ledger " << f.ledger_rows << " rows "
             << f.ledger_sum << "c, deliveries " << f.deliveries << ", events " << f.events
             << ", statuses " << f.statuses << ", numbers " << f.numbers << ", opt-outs "
             << f.opt_outs << "}";
}

class ReplayTest : public PipelineTest {
 protected:
  // The receipt worker's periodic pass raises spend warnings (one per customer here, once a
  // day): every second, so that they are raised before the pipeline is found quiet rather than
  // whenever a restarted worker's first pass runs.
  ReplayTest() : PipelineTest({{"ACCOUNT_PROTECTION_INTERVAL_MS", "1000"}}) {}

  PipelineStack::Run kafkaTool(const std::vector<std::string>& args) {
    auto base = ::testing::TempDir() + "/" + newId("tool");
    ChildProcess tool(SMSGW_KAFKA_TOOL_PATH, args, {}, base + ".log", base + ".out");
    tool.start();
    PipelineStack::Run run;
    run.exit_code = tool.waitForExit(std::chrono::minutes(2)).value_or(-1);
    std::ifstream out(base + ".out"), log(base + ".log");
    std::stringstream out_text, log_text;
    out_text << out.rdbuf();
    log_text << log.rdbuf();
    run.out = out_text.str();
    run.log = log_text.str();
    return run;
  }
  // Lines of `worker`'s first instance's log that hold `text`.
  long long logLines(Worker worker, const std::string& text) {
    std::ifstream in(stack_.logOf(worker, 0));
    std::string line;
    long long count = 0;
    while (std::getline(in, line)) count += line.find(text) != std::string::npos ? 1 : 0;
    return count;
  }
  // How many members the broker says `group` has (-1: it could not tell).
  int brokerMembers(const std::string& group) {
    topics::ConsumerConfig config;
    config.brokers = stack_.kafka().bootstrap();
    config.group_id = group;
    return topics::groupMembers(config).value_or(-1);
  }
  long long textsAtCarrier() {
    auto answer =
        httpRequest("GET", stack_.simUrl() + "/sim/messages", {}, "", std::chrono::seconds(30));
    return static_cast<long long>(nlohmann::json::parse(answer.body)["data"].size());
  }

  Footprint footprint() {
    Footprint f;
    f.texts_at_carrier = textsAtCarrier();
    f.ledger_rows = query("SELECT count(*) FROM ledger_entries");
    f.ledger_sum = query("SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries");
    f.deliveries = query("SELECT count(*) FROM webhook_deliveries");
    f.events = query("SELECT count(*) FROM events");
    f.statuses = text(
        "SELECT md5(string_agg(id || status || coalesce(error_code, '') || cost_cents, ',' "
        "ORDER BY id)) FROM messages");
    f.numbers = text(
        "SELECT md5(string_agg(id || status || iso_ts(next_rent_due_at), ',' "
        "ORDER BY id)) FROM phone_numbers");
    f.opt_outs = query("SELECT count(*) FROM opt_outs");
    return f;
  }

  // Every event raised so far delivered to each endpoint subscribed to it, none owed a retry.
  bool eventsDelivered() {
    return query("SELECT count(*) FROM webhook_retries") == 0 &&
           query(
               "SELECT count(*) FROM events e JOIN webhooks w ON w.account_id = e.account_id "
               "AND w.events ? e.type WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d "
               "WHERE d.event_id = e.id AND d.webhook_id = w.id AND d.success)") == 0;
  }

  // Every message settled, every record published, every subscribed event delivered once.
  bool quiet() {
    return query("SELECT count(*) FROM messages WHERE status IN ('QUEUED', 'SENDING', 'SENT')") ==
               0 &&
           query("SELECT count(*) FROM outbox_pending") == 0 && eventsDelivered();
  }

  // Replays `topic` from `from` (an --from-offset or --from-time argument pair) into its
  // worker's live group, whose workers are stopped; returns the summary line.
  nlohmann::json replayIntoLiveGroup(const std::string& topic, const std::vector<std::string>& from,
                                     Worker worker) {
    std::vector<std::string> args = {
        "replay", "--topic", topic, "--group", stack_.liveGroup(worker), "--execute"};
    args.insert(args.end(), from.begin(), from.end());
    auto run = stack_.admin(args);
    EXPECT_EQ(run.exit_code, 0) << run.log;
    auto summary = nlohmann::json::parse(run.out, nullptr, false);
    EXPECT_FALSE(summary.is_discarded()) << run.out << run.log;
    std::cout << "replay " << topic << ": " << run.out;
    return summary.is_discarded() ? nlohmann::json::object() : summary;
  }
};

Worker workerOf(const topics::TopicSpec& topic) {
  if (topic.name == topics::kSmsOutbound.name) return Worker::Sender;
  if (topic.name == topics::kCarrierReceipts.name) return Worker::Receipt;
  if (topic.name == topics::kSmsInbound.name) return Worker::InboundKeyword;
  if (topic.name == topics::kEvents.name) return Worker::WebhookDispatcher;
  return Worker::RentBilling;
}

}  // namespace

TEST_F(ReplayTest, ReplayingEveryTopicFromTheStartChangesNothing) {
  constexpr int kCustomers = 4, kSendsEach = 500, kInbound = 40;
  std::vector<LiveCustomer> customers;
  for (int i = 0; i < kCustomers; ++i) {
    customers.push_back(factory_.make(3, 100));
    subscribe(customers.back(), kMessageEvents);
  }
  std::vector<std::thread> clients;
  clients.reserve(customers.size());
  for (const auto& customer : customers) {
    clients.emplace_back([&] { send(customer, kSendsEach, "r"); });
  }
  for (auto& client : clients) client.join();
  // Subscribers text the numbers; every fifth says STOP (an opt-out and an automatic reply).
  for (int i = 0; i < kInbound; ++i) {
    const auto& customer = customers[static_cast<size_t>(i) % customers.size()];
    nlohmann::json text = {{"from", customer.recipients[static_cast<size_t>(i)]},
                           {"to", customer.numbers[0]},
                           {"text", i % 5 == 0 ? "STOP" : "Hello " + std::to_string(i)}};
    EXPECT_EQ(
        httpRequest("POST", stack_.simUrl() + "/sim/inbound",
                    {{"Content-Type", "application/json"}}, text.dump(), std::chrono::seconds(10))
            .status,
        202);
  }
  // A month's rent for every number, through billing.rent.
  auto as_of = formatIso(std::chrono::system_clock::now() + std::chrono::hours(24 * 32));
  auto rent = stack_.admin({"rent", "run", "--as-of", as_of, "--wait", "120"});
  EXPECT_EQ(rent.exit_code, 0) << rent.log;

  ASSERT_TRUE(eventually([&] { return quiet(); }, 300))
      << "the pipeline did not settle: " << statusCounts();
  ASSERT_EQ(query("SELECT count(*) FROM messages WHERE direction = 'OUTBOUND' AND status = "
                  "'DELIVERED'"),
            kCustomers * kSendsEach + kInbound / 5)
      << "every send and every STOP confirmation delivered";
  ASSERT_EQ(query("SELECT count(*) FROM messages WHERE direction = 'INBOUND'"), kInbound);
  ASSERT_EQ(query("SELECT count(*) FROM ledger_entries WHERE kind = 'number_rent'"), kCustomers * 3)
      << "every number's second month, collected by the rent-billing worker";
  Footprint before = footprint();
  std::cout << "before the replay: " << before << std::endl;

  // Into the live group only while its workers are stopped.
  auto refused = stack_.admin({"replay", "--topic", "events", "--from-offset", "0", "--group",
                               stack_.liveGroup(Worker::WebhookDispatcher), "--execute"});
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.log;
  EXPECT_NE(refused.log.find("live member"), std::string::npos) << refused.log;

  for (Worker worker : PipelineStack::allWorkers()) stack_.stopWorkers(worker);
  // A member our registry of processes does not know (Kafka's console consumer) in the live
  // group: the broker's word (DescribeGroups) is enough to refuse.
  std::string group = stack_.liveGroup(Worker::WebhookDispatcher);
  auto scratch = ::testing::TempDir() + "/" + newId("stranger");
  ChildProcess stranger(SMSGW_KAFKA_TOOL_PATH,
                        {"console-consumer", "--bootstrap-server", stack_.kafka().bootstrap(),
                         "--topic", "events", "--group", group},
                        {}, scratch + ".log", scratch + ".out");
  stranger.start();
  ASSERT_TRUE(eventually([&] { return brokerMembers(group) == 1; }, 60));
  auto refused_by_broker = stack_.admin(
      {"replay", "--topic", "events", "--from-offset", "0", "--group", group, "--execute"});
  EXPECT_EQ(refused_by_broker.exit_code, 2) << refused_by_broker.out << refused_by_broker.log;
  EXPECT_NE(refused_by_broker.log.find("the broker says consumer group " + group + " has 1"),
            std::string::npos)
      << refused_by_broker.log;
  stranger.terminate();
  ASSERT_TRUE(eventually([&] { return brokerMembers(group) == 0; }, 60));

  std::map<std::string, long long> records;  // per topic
  for (const auto& topic : topics::allTopics()) {
    if (topic.consumer.empty()) continue;  // no worker to replay it into
    auto summary =
        replayIntoLiveGroup(std::string(topic.name), {"--from-offset", "0"}, workerOf(topic));
    records[std::string(topic.name)] = summary.value("records", 0);
    EXPECT_GT(summary.value("records", 0), 0) << topic.name;
    EXPECT_EQ(summary.value("handled", -1), summary.value("records", 0)) << topic.name;
    EXPECT_EQ(summary.value("applied", -1), 0) << topic.name << ": the replay changed something";
    EXPECT_EQ(summary.value("dead_lettered", -1), 0) << topic.name;
  }
  // Each replay ran its handlers in smsgw-admin and reported them before it returned, so its
  // writes are done; whatever it raised would travel through the outbox, which the pipeline
  // drains before it is quiet.
  ASSERT_TRUE(eventually([&] { return quiet(); }, 60)) << statusCounts();
  EXPECT_EQ(footprint(), before);
  EXPECT_EQ(query("SELECT count(*) FROM outbox WHERE created_at > now() - interval '5 seconds'"), 0)
      << "the replay wrote nothing to publish";

  // Kafka's own tool lists our groups with their lag (none is left), and the receipt worker
  // respects an offset reset an operator made with it: every receipt is handled again, and
  // changes nothing.
  auto described = kafkaTool({"consumer-groups", "--bootstrap-server", stack_.kafka().bootstrap(),
                              "--describe", "--all-groups"});
  ASSERT_EQ(described.exit_code, 0) << described.log;
  std::cout << "consumer groups:\n" << described.out;
  for (Worker worker : PipelineStack::allWorkers()) {
    std::string live = stack_.liveGroup(worker);
    EXPECT_NE(described.out.find(live + " "), std::string::npos) << live;
    std::istringstream lines(described.out);
    std::string line;
    while (std::getline(lines, line)) {  // GROUP TOPIC PARTITION CURRENT LOG-END LAG ...
      std::istringstream fields(line);
      std::string name, topic, partition, current, end, lag;
      fields >> name >> topic >> partition >> current >> end >> lag;
      if (name == live) {
        EXPECT_EQ(lag, "0") << line;
      }
    }
  }
  std::string receipts_group = stack_.liveGroup(Worker::Receipt);
  auto reset = kafkaTool({"consumer-groups", "--bootstrap-server", stack_.kafka().bootstrap(),
                          "--group", receipts_group, "--topic", "carrier.receipts",
                          "--reset-offsets", "--to-earliest", "--execute"});
  ASSERT_EQ(reset.exit_code, 0) << reset.out << reset.log;
  auto handled_again = [&] { return logLines(Worker::Receipt, "unchanged carrier.receipts/"); };
  long long before_reset = handled_again();
  stack_.startWorkers(Worker::Receipt);
  EXPECT_TRUE(eventually(
      [&] { return handled_again() - before_reset == records["carrier.receipts"]; }, 120))
      << handled_again() - before_reset << " of " << records["carrier.receipts"];
  // A record is logged once its handler's transaction has ended.
  ASSERT_TRUE(eventually([&] { return quiet(); }, 60)) << statusCounts();
  EXPECT_EQ(footprint(), before);
}

TEST_F(ReplayTest, ReplayingReceiptsFromATimeRestoresExactlyTheEffectsARestoreLost) {
  auto customer = factory_.make(3, 100);
  subscribe(customer, kMessageEvents);
  auto delivered = [&](long long n) {
    bool settled =
        eventually([&] { return quiet() && query("SELECT count(*) FROM messages") == n; }, 120);
    if (!settled) std::cout << "not settled: " << statusCounts() << std::endl;
    return settled;
  };
  // Receipts of the first 100 sends are before the incident's time and stay applied.
  send(customer, 100, "early");
  ASSERT_TRUE(delivered(100));
  // Record times are in milliseconds: the incident starts at the next one, after every early
  // receipt (each already applied) and before any late one (each a carrier round trip away).
  std::string incident_start =
      formatIso(std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now()) +
                std::chrono::milliseconds(1));

  // The receipt worker is stopped: 300 sends reach the carrier, and their receipts pile up.
  stack_.stopWorkers(Worker::Receipt);
  send(customer, 300, "late");
  ASSERT_TRUE(eventually(
      [&] {
        // The webhooks of the sends too: an event the snapshot shows undelivered, whose
        // record the dispatcher has already consumed, would be owed after the restore with
        // nothing left to deliver it (the incident here loses receipts' effects only).
        return query("SELECT count(*) FROM messages WHERE status = 'SENDING'") == 300 &&
               query("SELECT count(*) FROM outbox WHERE topic = 'carrier.receipts'") == 400 &&
               query("SELECT count(*) FROM outbox_pending") == 0 && eventsDelivered();
      },
      120))
      << statusCounts() << "; receipts published "
      << query("SELECT count(*) FROM outbox WHERE topic = 'carrier.receipts'") << ", unpublished "
      << query("SELECT count(*) FROM outbox_pending");
  // The snapshot the incident will restore, taken while the receipts wait.
  auto dump = (std::filesystem::temp_directory_path() / ("replay-" + newId("snap") + ".dump"));
  ASSERT_EQ(
      std::system(("pg_dump -Fc -f " + dump.string() + " -d '" + scratch_.url() + "'").c_str()), 0);

  stack_.startWorkers(Worker::Receipt);
  ASSERT_TRUE(delivered(400));
  Footprint truth = footprint();
  long long delivered_events =
      query("SELECT count(*) FROM events WHERE type = 'message.delivered'");

  // The incident: the database goes back to the snapshot, losing the 300 receipts' effects,
  // while the receipt group's offsets say they were handled.
  for (Worker worker : PipelineStack::allWorkers()) stack_.stopWorkers(worker);
  stack_.api().terminate();
  ASSERT_EQ(std::system(("pg_restore --clean --if-exists --single-transaction -d '" +
                         scratch_.url() + "' " + dump.string())
                            .c_str()),
            0);
  std::filesystem::remove(dump);
  ASSERT_EQ(query("SELECT count(*) FROM messages WHERE status = 'SENDING'"), 300);
  stack_.api().start();
  for (Worker worker : PipelineStack::allWorkers()) {
    if (worker != Worker::Receipt) stack_.startWorkers(worker);
  }

  auto summary =
      replayIntoLiveGroup("carrier.receipts", {"--from-time", incident_start}, Worker::Receipt);
  // The range found from record timestamps: the 300 receipts, and any the carrier sent twice
  // (it calls back again when our answer is late, as on a loaded box): those apply once.
  EXPECT_GE(summary.value("records", 0), 300);
  // Not from the partitions' start: that range holds the 100 early receipts too (400 or more),
  // and would pass every other check here, since those apply as already applied.
  EXPECT_LT(summary.value("records", 0), 400) << "the replay began at --from-time";
  EXPECT_EQ(summary.value("applied", 0), 300);
  EXPECT_EQ(summary.value("already_applied", -1), summary.value("records", 0) - 300);

  stack_.startWorkers(Worker::Receipt);
  ASSERT_TRUE(delivered(400));
  Footprint after = footprint();
  EXPECT_EQ(after.statuses, truth.statuses) << "every message as it was before the incident";
  EXPECT_EQ(after.ledger_rows, truth.ledger_rows);
  EXPECT_EQ(after.ledger_sum, truth.ledger_sum);
  EXPECT_EQ(after.texts_at_carrier, truth.texts_at_carrier) << "no text sent again";
  EXPECT_EQ(query("SELECT count(*) FROM events WHERE type = 'message.delivered'"),
            delivered_events);
  EXPECT_EQ(query("SELECT balance_cents FROM accounts WHERE id = '" + customer.id + "'"),
            query("SELECT sum(amount_cents) FROM ledger_entries WHERE account_id = '" +
                  customer.id + "'"));
}
