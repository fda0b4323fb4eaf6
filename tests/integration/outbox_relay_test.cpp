// The outbox: rows publish only once committed, in order, by one leading relay at a time; the
// sweeper publishes rows a crash left, and another relay takes the lead when the leader goes.
// Relays killed under concurrent writers: outbox_relay_kill_test.cpp.
#include "topics/outbox_relay.h"

#include <gtest/gtest.h>
#include <soci/soci.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <thread>

#include "db/database.h"
#include "db/outbox.h"
#include "domain/ids.h"
#include "tests/support/kafka_reader.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

constexpr const char* kTopic = "it.scratch";

size_t publishedCount(db::Database& database, long long id) {
  db::Session sql(database);
  int published = 0;
  *sql << "SELECT count(*) FROM outbox o JOIN outbox_relay_position p ON (o.txid, o.id) <= "
          "(p.txid, p.id) WHERE o.id = :id",
      soci::use(id), soci::into(published);
  return static_cast<size_t>(published);
}

// Passes until `expected` rows went out (or 20 s did). A row leaves once every transaction of
// the cluster that began before it has ended, and other tests' databases share the cluster.
int publishExpected(topics::OutboxRelay& relay, int expected) {
  int published = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (published < expected && std::chrono::steady_clock::now() < deadline) {
    published += relay.publishPending();
    if (published < expected) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return published;
}

auto withKey(const std::string& key) {
  return [key](const topics::Record& r) { return r.key == key; };
}

}  // namespace

TEST(OutboxRelay, PublishesOnlyCommittedRows) {
  ScratchDatabase scratch;
  db::Database database(scratch.url(), 2);
  topics::Producer producer(brokers(), "outbox-test");
  topics::OutboxRelay relay(database, producer);
  std::string rolled_back_key = "rb-" + randomBase62(8), committed_key = "ok-" + randomBase62(8);
  {
    db::Session sql(database);
    soci::transaction tx(*sql);
    db::enqueueOutbox(*sql, kTopic, rolled_back_key, R"({"v":1})");
    tx.rollback();
  }
  EXPECT_EQ(relay.publishPending(), 0);
  long long id = 0;
  {
    db::Session sql(database);
    soci::transaction tx(*sql);
    id = db::enqueueOutbox(*sql, kTopic, committed_key, R"({"v":1,"n":2})");
    EXPECT_EQ(relay.publishPending(), 0) << "an uncommitted row must not be visible to the relay";
    tx.commit();
  }
  EXPECT_EQ(publishExpected(relay, 1), 1);
  EXPECT_EQ(publishedCount(database, id), 1u);
  auto records = readRecords(kTopic, withKey(committed_key), 1, std::chrono::seconds(20));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].payload, R"({"v":1,"n":2})");
  EXPECT_TRUE(readRecords(kTopic, withKey(rolled_back_key), 1, std::chrono::seconds(3)).empty());
}

// The relay keeps a position instead of marking rows (migration 0018): a row whose transaction
// began before others but commits after them must not fall behind that position.
TEST(OutboxRelay, ARowThatCommitsAfterLaterRowsIsNeverPassedOver) {
  ScratchDatabase scratch;
  db::Database database(scratch.url(), 3);
  topics::Producer producer(brokers(), "late-row-test");
  topics::OutboxRelay relay(database, producer);
  std::string key = "late-" + randomBase62(8);
  db::Session slow(database);
  soci::transaction slow_tx(*slow);
  long long late = db::enqueueOutbox(*slow, kTopic, key, "late");
  long long after = 0;
  {
    db::Session sql(database);
    after = db::enqueueOutbox(*sql, kTopic, key, "after");
  }
  EXPECT_EQ(relay.publishPending(), 0)
      << "a committed row waits while a transaction that began before it is open";
  EXPECT_EQ(publishedCount(database, after), 0u);
  slow_tx.commit();
  EXPECT_EQ(publishExpected(relay, 2), 2);
  EXPECT_EQ(publishedCount(database, late), 1u);
  EXPECT_EQ(publishedCount(database, after), 1u);
  auto records = readRecords(kTopic, withKey(key), 2, std::chrono::seconds(20));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].payload, "late");
  EXPECT_EQ(records[1].payload, "after");
  EXPECT_EQ(relay.publishPending(), 0) << "nothing published twice";
}

// The order is the transaction ids' as numbers. It was once their text's ('100' before '99'):
// records went out of order, and a batch cut among the 100s moved the position past the 99.
TEST(OutboxRelay, TransactionIdsSpanningAPowerOfTenKeepTheirOrder) {
  ScratchDatabase scratch;
  db::Database database(scratch.url(), 2);
  topics::Producer producer(brokers(), "digits-test");
  topics::OutboxRelay relay(database, producer,
                            topics::OutboxRelayConfig{std::chrono::milliseconds(100), 2});
  std::string key = "digits-" + randomBase62(8);
  // Rows of long-ended transactions 100 (written first) and 99, as a busy cluster crossing
  // 100 would leave them.
  scratch.exec("INSERT INTO outbox (topic, record_key, payload, txid) VALUES ('" +
               std::string(kTopic) + "', '" + key + "', '100-a', '100'), ('" + kTopic + "', '" +
               key + "', '100-b', '100'), ('" + kTopic + "', '" + key + "', '100-c', '100'), ('" +
               kTopic + "', '" + key + "', '99', '99')");
  EXPECT_EQ(publishExpected(relay, 4), 4) << "a row was passed over";
  auto records = readRecords(kTopic, withKey(key), 4, std::chrono::seconds(20));
  std::vector<std::string> payloads;
  payloads.reserve(records.size());
  for (const auto& record : records) payloads.push_back(record.payload);
  EXPECT_EQ(payloads, (std::vector<std::string>{"99", "100-a", "100-b", "100-c"}));
}

// A restore from pg_dump brings the rows and the position into a cluster whose transaction ids
// are lower: before migration 0029, every row written after it sorted below the position and
// was never published, while outbox_pending read 0. The relay re-bases on finding another
// cluster: what the old one had not published goes, then what this one wrote; nothing repeats.
TEST(OutboxRelay, AfterALogicalMoveNothingUnpublishedIsPassedOverAndNothingPublishedRepeats) {
  ScratchDatabase scratch;
  db::Database database(scratch.url(), 2);
  std::string key = "moved-" + randomBase62(8);
  auto row = [&](const std::string& payload, const std::string& txid) {
    return "('" + std::string(kTopic) + "', '" + key + "', '" + payload + "', '" + txid + "')";
  };
  // The old cluster's transaction ids, far above this one's. Its relay had published up to the
  // last "published" row; "late" began after and committed after that pass; two came later.
  const std::string old_position = "4000000000000", after_it = "4000000000001";
  scratch.exec("INSERT INTO outbox (topic, record_key, payload, txid) VALUES " +
               row("late", after_it));
  scratch.exec("INSERT INTO outbox (topic, record_key, payload, txid) VALUES " +
               row("published-1", old_position) + ", " + row("published-2", old_position) + ", " +
               row("unpublished-1", after_it) + ", " + row("unpublished-2", after_it));
  scratch.exec("UPDATE outbox_relay_position SET cluster_id = 42, txid = '" + old_position +
               "', (id, highest_published_id) = (SELECT max(id), max(id) FROM outbox WHERE "
               "payload LIKE 'published-%')");
  {
    db::Session sql(database);  // this cluster's own transactions, ids far below the position
    for (const char* payload : {"new-1", "new-2", "new-3"})
      db::enqueueOutbox(*sql, kTopic, key, payload);
  }

  topics::Producer producer(brokers(), "moved-test");
  topics::OutboxRelay relay(database, producer);
  EXPECT_EQ(publishExpected(relay, 6), 6);
  EXPECT_EQ(relay.publishPending(), 0) << "nothing published twice";
  auto records = readRecords(kTopic, withKey(key), 7, std::chrono::seconds(5));
  std::vector<std::string> payloads;
  payloads.reserve(records.size());
  for (const auto& record : records) payloads.push_back(record.payload);
  EXPECT_EQ(payloads, (std::vector<std::string>{"late", "unpublished-1", "unpublished-2", "new-1",
                                                "new-2", "new-3"}));
  db::Session sql(database);
  long long cluster = 0, here = 0, pending = -1;
  *sql << "SELECT p.cluster_id, c.system_identifier, (SELECT count(*) FROM outbox_pending) "
          "FROM outbox_relay_position p, pg_control_system() c",
      soci::into(cluster), soci::into(here), soci::into(pending);
  EXPECT_EQ(cluster, here) << "the position names this cluster now";
  EXPECT_EQ(pending, 0);
  // A row written after the re-base goes out after the others, and no re-base happens again.
  db::enqueueOutbox(*sql, kTopic, key, "after");
  EXPECT_EQ(publishExpected(relay, 1), 1);
  EXPECT_FALSE(db::bindOutboxToCluster(*sql).has_value());
}

TEST(OutboxRelay, SweeperPublishesWhatACrashBetweenCommitAndPublishLeft) {
  ScratchDatabase scratch;
  std::string key = "crash-" + randomBase62(8);
  long long id = 0;
  // A process commits its change and outbox row, then dies before publishing: only the
  // committed row remains. This child process does exactly that and exits without a relay.
  pid_t child = fork();
  if (child == 0) {
    db::Database database(scratch.url(), 1);
    db::Session sql(database);
    db::enqueueOutbox(*sql, kTopic, key, R"({"v":1,"from":"crashed"})");
    _exit(9);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 9);

  db::Database database(scratch.url(), 2);
  {
    db::Session sql(database);
    *sql << "SELECT id FROM outbox_pending WHERE record_key = :k", soci::use(key), soci::into(id);
    ASSERT_TRUE(sql->got_data());
  }
  topics::Producer producer(brokers(), "sweeper-test");
  topics::OutboxRelay relay(database, producer, {std::chrono::milliseconds(100), 500});
  relay.start();  // no notify(): only the timed sweep can find the row
  auto records = readRecords(kTopic, withKey(key), 1, std::chrono::seconds(30));
  relay.stop();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(publishedCount(database, id), 1u);
}

TEST(OutboxRelay, KeepsOutboxOrderForOneKey) {
  ScratchDatabase scratch;
  db::Database database(scratch.url(), 2);
  topics::Producer producer(brokers(), "order-test");
  topics::OutboxRelay relay(database, producer);
  std::string key = "order-" + randomBase62(8);
  {
    db::Session sql(database);
    for (int i = 0; i < 20; ++i) db::enqueueOutbox(*sql, kTopic, key, std::to_string(i));
  }
  EXPECT_EQ(publishExpected(relay, 20), 20);
  auto records = readRecords(kTopic, withKey(key), 20, std::chrono::seconds(20));
  ASSERT_EQ(records.size(), 20u);
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(records[static_cast<size_t>(i)].payload, std::to_string(i));
}

TEST(OutboxRelay, OneRelayLeadsAndAnotherTakesOverWhenItGoes) {
  ScratchDatabase scratch;
  db::Database database(scratch.url(), 2);
  topics::Producer producer(brokers(), "leader-test");
  std::string key = "lead-" + randomBase62(8);
  auto enqueue = [&](const std::string& payload) {
    db::Session sql(database);
    return db::enqueueOutbox(*sql, kTopic, key, payload);
  };
  topics::OutboxRelayConfig quick{std::chrono::milliseconds(100), 500};
  auto follower = std::make_unique<topics::OutboxRelay>(database, producer, quick);
  long long first = 0;
  {
    topics::OutboxRelay leader(database, producer, quick);
    first = enqueue("1");
    EXPECT_EQ(publishExpected(leader, 1), 1) << "the first relay to ask leads";
    enqueue("2");
    EXPECT_EQ(follower->publishPending(), 0) << "only the leader publishes";
    EXPECT_EQ(publishExpected(leader, 1), 1);
    enqueue("3");
  }  // the leader goes, and its lock with its connection
  EXPECT_EQ(publishedCount(database, first), 1u);
  follower->start();  // no notify(): the follower asks to lead on its own timer
  auto records = readRecords(kTopic, withKey(key), 3, std::chrono::seconds(20));
  follower->stop();
  ASSERT_EQ(records.size(), 3u);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(records[static_cast<size_t>(i)].payload, std::to_string(i + 1));
}
