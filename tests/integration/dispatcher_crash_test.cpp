// The real smsgw-webhook-dispatcher killed with SIGKILL in the middle of a retry: another
// dispatcher takes the event up when the dead one's lease runs out, and it is delivered.
#include <gtest/gtest.h>
#include <soci/soci.h>

#include <filesystem>
#include <sstream>
#include <thread>

#include "db/database.h"
#include "domain/crypto.h"
#include "domain/ids.h"
#include "domain/webhook_signature.h"
#include "tests/support/child_process.h"
#include "tests/support/eventually.h"
#include "tests/support/http_test_client.h"
#include "tests/support/scratch_database.h"
#include "tests/support/webhook_receiver.h"
#include "topics/event_writer.h"

using namespace smsgw;
using namespace smsgw::testing;
using namespace std::chrono_literals;

namespace {

int count(db::Database& db, const std::string& query) {
  db::Session sql(db);
  int n = 0;
  *sql << query, soci::into(n);
  return n;
}

class DispatcherCrash : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.exec("INSERT INTO accounts (id, name, email, password_hash, status) VALUES ('" +
                  account_ + "', 'T', '" + account_ + "@ex.ca', 'x', 'ACTIVE');" +
                  "INSERT INTO webhooks (id, account_id, url, events, signing_secret) VALUES ('" +
                  newId("wh") + "', '" + account_ + "', '" + receiver_.url() +
                  "', '[\"message.sent\"]', '" + newWebhookSecret() + "')");
  }

  std::unique_ptr<ChildProcess> dispatcher() {
    std::map<std::string, std::string> env = {
        {"DATABASE_URL", asProcessRole(scratch_.url(), "webhook-dispatcher")},
        {"KAFKA_GROUP_PREFIX", "whcrash" + run_},
        {"ALLOW_PRIVATE_WEBHOOK_TARGETS", "true"},
        // An attempt left hanging stays in flight
        // until the kill, however slow the box.
        {"WEBHOOK_TIMEOUT_MS", "300000"},
        {"WEBHOOK_RETRY_POLL_MS", "100"},
        {"WEBHOOK_RETRY_LEASE_SECONDS", "3"},
        {"METRICS_PORT", std::to_string(metrics_port_)}};
    auto log = (std::filesystem::temp_directory_path() / ("whcrash-" + run_ + ".log")).string();
    return std::make_unique<ChildProcess>(SMSGW_DISPATCHER_PATH, std::vector<std::string>{}, env,
                                          log);
  }

  void raise() {
    db::Session sql(db_);
    soci::transaction tx(*sql);
    topics::raiseEvent(*sql, {account_, "message.sent", true, {{"message_id", "msg_1"}}});
    tx.commit();
  }

  // The dispatcher's offset commits so far, whatever their result (0 until it answers).
  long long offsetCommits() {
    Reply scraped =
        HttpTestClient("http://127.0.0.1:" + std::to_string(metrics_port_)).call("GET", "/metrics");
    long long commits = 0;
    std::istringstream lines(scraped.raw_body);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("smsgw_consumer_offset_commits_total{", 0) == 0)
        commits += std::stoll(line.substr(line.rfind(' ') + 1));
    }
    return commits;
  }

  int metrics_port_ = freeLoopbackPort();
  ScratchDatabase scratch_;
  db::Database db_{scratch_.url(), 2};
  WebhookReceiver receiver_;
  std::string account_ = newId("acc");
  std::string run_ = crypto::sha256Hex(newId("run")).substr(0, 8);
};

TEST_F(DispatcherCrash, AnEventWhoseRetryWasInFlightWhenTheDispatcherDiedIsDelivered) {
  receiver_.answerWith(ReceiverAnswer::Status, 500);
  auto first = dispatcher();
  first->start();
  raise();
  ASSERT_EQ(receiver_.waitFor(1, 60s).size(), 1u) << "the first attempt, answered 500";
  receiver_.answerWith(ReceiverAnswer::Hang);
  ASSERT_EQ(receiver_.waitFor(2, 30s).size(), 2u) << "the retry, in flight";
  first->kill9();
  EXPECT_EQ(count(db_, "SELECT count(*) FROM webhook_retries"), 1) << "still owed";

  receiver_.answerWith(ReceiverAnswer::Ok);
  auto second = dispatcher();
  second->start();
  auto got = receiver_.waitFor(3, 60s);
  ASSERT_EQ(got.size(), 3u) << "taken again once the lease ran out";
  EXPECT_EQ(got[2].headers["webhook-id"], got[0].headers["webhook-id"]);
  for (int i = 0; i < 100 && count(db_, "SELECT count(*) FROM webhook_retries") > 0; ++i)
    std::this_thread::sleep_for(100ms);
  EXPECT_EQ(count(db_, "SELECT count(*) FROM webhook_retries"), 0);
  EXPECT_EQ(count(db_, "SELECT count(*) FROM webhook_deliveries WHERE success AND attempt = 2"), 1)
      << "the killed attempt left no record; the one that succeeded is the second";
  EXPECT_EQ(count(db_, "SELECT count(*) FROM webhook_dead_letters"), 0);
}

// A first attempt lives only in the dispatcher's memory until it is settled: the record's offset
// waits for it (Outcome::settles), so a dispatcher killed mid-attempt replays the event.
TEST_F(DispatcherCrash, AnEventWhoseFirstAttemptWasInFlightWhenTheDispatcherDiedIsDelivered) {
  receiver_.answerWith(ReceiverAnswer::Hang);
  auto first = dispatcher();
  first->start();
  raise();
  ASSERT_EQ(receiver_.waitFor(1, 60s).size(), 1u) << "the first attempt, in flight";
  // Two background commits begun since the attempt was in flight: had the event's offset been
  // stored before its attempt was settled, the first of them would have committed it.
  long long commits = offsetCommits();
  ASSERT_TRUE(eventually([&] { return offsetCommits() >= commits + 2; }, 30s))
      << "the dispatcher never committed its offsets";
  first->kill9();
  EXPECT_EQ(count(db_, "SELECT count(*) FROM webhook_retries") +
                count(db_, "SELECT count(*) FROM webhook_deliveries"),
            0)
      << "nothing in the database says the event is owed";

  receiver_.answerWith(ReceiverAnswer::Ok);
  auto second = dispatcher();
  second->start();
  auto got = receiver_.waitFor(2, 60s);
  ASSERT_EQ(got.size(), 2u) << "the event, replayed from its uncommitted offset";
  EXPECT_EQ(got[1].headers["webhook-id"], got[0].headers["webhook-id"]);
  for (int i = 0; i < 100 && count(db_, "SELECT count(*) FROM webhook_deliveries") == 0; ++i)
    std::this_thread::sleep_for(100ms);
  EXPECT_EQ(count(db_, "SELECT count(*) FROM webhook_deliveries WHERE success"), 1);
}

}  // namespace
