// The real smsgw-webhook-dispatcher killed with SIGKILL in the middle of a retry: another
// dispatcher takes the event up when the dead one's lease runs out, and it is delivered.
#include <gtest/gtest.h>
#include <soci/soci.h>

#include <filesystem>
#include <thread>

#include "db/database.h"
#include "domain/crypto.h"
#include "domain/ids.h"
#include "domain/webhook_signature.h"
#include "tests/support/child_process.h"
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

TEST(DispatcherCrash, AnEventWhoseRetryWasInFlightWhenTheDispatcherDiedIsDelivered) {
  ScratchDatabase scratch;
  db::Database db(scratch.url(), 2);
  WebhookReceiver receiver;
  receiver.answerWith(ReceiverAnswer::Status, 500);
  std::string account = newId("acc");
  scratch.exec("INSERT INTO accounts (id, name, email, password_hash, status) VALUES ('" + account +
               "', 'T', '" + account + "@ex.ca', 'x', 'ACTIVE');" +
               "INSERT INTO webhooks (id, account_id, url, events, signing_secret) VALUES ('" +
               newId("wh") + "', '" + account + "', '" + receiver.url() +
               "', '[\"message.sent\"]', '" + newWebhookSecret() + "')");

  std::string run = crypto::sha256Hex(newId("run")).substr(0, 8);
  std::map<std::string, std::string> env = {
      {"DATABASE_URL", scratch.url()},           {"KAFKA_GROUP_PREFIX", "whcrash" + run},
      {"ALLOW_PRIVATE_WEBHOOK_TARGETS", "true"}, {"WEBHOOK_TIMEOUT_MS", "20000"},
      {"WEBHOOK_RETRY_POLL_MS", "100"},          {"WEBHOOK_RETRY_LEASE_SECONDS", "3"}};
  auto log = (std::filesystem::temp_directory_path() / ("whcrash-" + run + ".log")).string();
  ChildProcess first(SMSGW_DISPATCHER_PATH, {}, env, log);
  first.start();
  {
    db::Session sql(db);
    soci::transaction tx(*sql);
    topics::raiseEvent(*sql, {account, "message.sent", true, {{"message_id", "msg_1"}}});
    tx.commit();
  }
  ASSERT_EQ(receiver.waitFor(1, 60s).size(), 1u) << "the first attempt, answered 500";
  receiver.answerWith(ReceiverAnswer::Hang);
  ASSERT_EQ(receiver.waitFor(2, 30s).size(), 2u) << "the retry, in flight";
  first.kill9();
  EXPECT_EQ(count(db, "SELECT count(*) FROM webhook_retries"), 1) << "still owed";

  receiver.answerWith(ReceiverAnswer::Ok);
  ChildProcess second(SMSGW_DISPATCHER_PATH, {}, env, log);
  second.start();
  auto got = receiver.waitFor(3, 60s);
  ASSERT_EQ(got.size(), 3u) << "taken again once the lease ran out";
  EXPECT_EQ(got[2].headers["webhook-id"], got[0].headers["webhook-id"]);
  for (int i = 0; i < 100 && count(db, "SELECT count(*) FROM webhook_retries") > 0; ++i)
    std::this_thread::sleep_for(100ms);
  EXPECT_EQ(count(db, "SELECT count(*) FROM webhook_retries"), 0);
  EXPECT_EQ(count(db, "SELECT count(*) FROM webhook_deliveries WHERE success AND attempt = 2"), 1)
      << "the killed attempt left no record; the one that succeeded is the second";
  EXPECT_EQ(count(db, "SELECT count(*) FROM webhook_dead_letters"), 0);
}

}  // namespace
