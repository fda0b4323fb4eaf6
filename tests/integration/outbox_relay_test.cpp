// The outbox: rows publish only once committed, in order, by one leading relay at a time; the
// sweeper publishes rows a crash left, and another relay takes the lead when the leader goes.
// Relays killed under concurrent writers: outbox_relay_kill_test.cpp.
#include "topics/outbox_relay.h"

#include <gtest/gtest.h>
#include <soci/postgresql/soci-postgresql.h>
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
  *sql << "SELECT count(*) FROM outbox_published WHERE id = :id", soci::use(id),
      soci::into(published);
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
// began before others but commits after them must not fall behind that position, and leaves
// after them, in commit order (migration 0030).
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
  EXPECT_EQ(records[0].payload, "after") << "committed first";
  EXPECT_EQ(records[1].payload, "late");
  EXPECT_EQ(relay.publishPending(), 0) << "nothing published twice";
}

// Issue 51: records once left in the order their transactions took ids. A writer that took its
// id first, then waited for the key's row another writer held, committed second and left first.
TEST(OutboxRelay, AWriterThatTookItsIdFirstButCommittedSecondLeavesSecond) {
  ScratchDatabase scratch;
  scratch.exec("CREATE TABLE keys (k text PRIMARY KEY, n int NOT NULL)");
  std::string key = "lock-" + randomBase62(8);
  scratch.exec("INSERT INTO keys VALUES ('" + key + "', 0)");
  soci::session first(soci::postgresql, scratch.url()), second(soci::postgresql, scratch.url());
  soci::transaction second_tx(second);
  second << "SELECT pg_current_xact_id()";  // the second writer's id comes first
  soci::transaction first_tx(first);
  first << "UPDATE keys SET n = n + 1 WHERE k = :k", soci::use(key);
  db::enqueueOutbox(first, kTopic, key, "committed first");
  std::thread waiter([&] {
    second << "UPDATE keys SET n = n + 1 WHERE k = :k", soci::use(key);  // waits for `first`
    db::enqueueOutbox(second, kTopic, key, "committed second");
    second_tx.commit();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // `second` now waits
  first_tx.commit();
  waiter.join();

  db::Database database(scratch.url(), 2);
  topics::Producer producer(brokers(), "lock-order-test");
  topics::OutboxRelay relay(database, producer);
  EXPECT_EQ(publishExpected(relay, 2), 2);
  auto records = readRecords(kTopic, withKey(key), 2, std::chrono::seconds(20));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].payload, "committed first");
  EXPECT_EQ(records[1].payload, "committed second");
}

// A transaction takes its stamp a moment before its commit is visible. A relay that read the
// sequence alone would publish a later stamp in that moment and move past the earlier one,
// which would then never leave. A trigger here holds one writer between stamp and commit.
TEST(OutboxRelay, AStampTakenButNotYetVisibleIsWaitedForNotPassedOver) {
  ScratchDatabase scratch;
  scratch.exec(
      "CREATE FUNCTION hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
      "IF NEW.payload = 'held' THEN PERFORM pg_sleep(2); END IF; RETURN NULL; END $$; "
      // Named after outbox_commit_stamp: fires after it at commit.
      "CREATE CONSTRAINT TRIGGER zz_hold_commit AFTER INSERT ON outbox DEFERRABLE INITIALLY "
      "DEFERRED FOR EACH ROW EXECUTE FUNCTION hold_commit()");
  db::Database database(scratch.url(), 2);
  topics::Producer producer(brokers(), "held-commit-test");
  topics::OutboxRelay relay(database, producer);
  std::string key = "held-" + randomBase62(8);
  auto lastStamp = [&] {
    db::Session sql(database);
    long long stamp = 0;
    *sql << "SELECT coalesce(pg_sequence_last_value('outbox_commit_stamp'), 0)", soci::into(stamp);
    return stamp;
  };
  long long before = lastStamp();
  std::thread held([&] {
    soci::session sql(soci::postgresql, scratch.url());
    soci::transaction tx(sql);
    db::enqueueOutbox(sql, kTopic, key, "held");
    tx.commit();  // stamps, then sleeps in the trigger before the commit shows
  });
  while (lastStamp() == before) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  {
    db::Session sql(database);
    db::enqueueOutbox(*sql, kTopic, key, "quick");  // a later stamp, visible at once
  }
  // Passes for about a second, while the held writer sleeps (2 s): a relay that took the quick
  // stamp now would move past the held one for good.
  int published = 0;
  for (int pass = 0; pass < 100; ++pass) {
    published += relay.publishPending();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  held.join();
  EXPECT_EQ(publishExpected(relay, 2 - published), 2 - published) << "a row was passed over";
  EXPECT_EQ(relay.publishPending(), 0);
  auto records = readRecords(kTopic, withKey(key), 2, std::chrono::seconds(20));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].payload, "held");
  EXPECT_EQ(records[1].payload, "quick");
}

// The order is the stamps' as numbers. It was once the transaction ids' text ('100' before
// '99'): records went out of order, and a batch cut among the 100s moved the position past the
// 99. Batches of 2 cut between 99 and 100 here.
TEST(OutboxRelay, StampsSpanningAPowerOfTenKeepTheirOrder) {
  ScratchDatabase scratch;
  db::Database database(scratch.url(), 2);
  topics::Producer producer(brokers(), "digits-test");
  topics::OutboxRelay relay(database, producer,
                            topics::OutboxRelayConfig{std::chrono::milliseconds(100), 2});
  std::string key = "digits-" + randomBase62(8);
  scratch.exec("SELECT setval('outbox_commit_stamp', 97)");
  for (const char* payload : {"98", "99", "100", "101"}) {
    db::Session sql(database);
    db::enqueueOutbox(*sql, kTopic, key, payload);
  }
  EXPECT_EQ(publishExpected(relay, 4), 4) << "a row was passed over";
  auto records = readRecords(kTopic, withKey(key), 4, std::chrono::seconds(20));
  std::vector<std::string> payloads;
  payloads.reserve(records.size());
  for (const auto& record : records) payloads.push_back(record.payload);
  EXPECT_EQ(payloads, (std::vector<std::string>{"98", "99", "100", "101"}));
}

// A restore from pg_dump brings the rows, their stamps and the position into a cluster that
// issues transaction ids of its own, the restored rows' among them (before migration 0029 every
// row written after a restore sorted below the position and was never published, while
// outbox_pending read 0). The relay re-keys the rows on finding another cluster: what the old
// one had not published goes, in its order, then what this one wrote; nothing repeats.
TEST(OutboxRelay, AfterALogicalMoveNothingUnpublishedIsPassedOverAndNothingPublishedRepeats) {
  ScratchDatabase scratch;
  db::Database database(scratch.url(), 2);
  std::string key = "moved-" + randomBase62(8);
  auto row = [&](const std::string& payload, const std::string& txid) {
    return "('" + std::string(kTopic) + "', '" + key + "', '" + payload + "', '" + txid + "')";
  };
  // The old cluster's transactions. Its relay had published the two "published" rows; the
  // others committed after.
  const std::string published_txid = "4000000000000", later_txid = "4000000000001";
  scratch.exec("INSERT INTO outbox (topic, record_key, payload, txid) VALUES " +
               row("published-1", published_txid) + ", " + row("published-2", published_txid));
  scratch.exec("INSERT INTO outbox (topic, record_key, payload, txid) VALUES " +
               row("unpublished-1", later_txid) + ", " + row("unpublished-2", later_txid));
  scratch.exec(
      "UPDATE outbox_relay_position SET cluster_id = 42, (stamp, id) = (SELECT stamp, max(id) "
      "FROM outbox_pending WHERE payload LIKE 'published-%' GROUP BY stamp)");
  {
    db::Session sql(database);  // this cluster's own transactions
    for (const char* payload : {"new-1", "new-2", "new-3"})
      db::enqueueOutbox(*sql, kTopic, key, payload);
  }

  topics::Producer producer(brokers(), "moved-test");
  topics::OutboxRelay relay(database, producer);
  EXPECT_EQ(publishExpected(relay, 5), 5);
  EXPECT_EQ(relay.publishPending(), 0) << "nothing published twice";
  auto records = readRecords(kTopic, withKey(key), 6, std::chrono::seconds(5));
  std::vector<std::string> payloads;
  payloads.reserve(records.size());
  for (const auto& record : records) payloads.push_back(record.payload);
  EXPECT_EQ(payloads, (std::vector<std::string>{"unpublished-1", "unpublished-2", "new-1", "new-2",
                                                "new-3"}));
  db::Session sql(database);
  long long cluster = 0, here = 0, pending = -1, issuable = -1;
  *sql << "SELECT p.cluster_id, c.system_identifier, (SELECT count(*) FROM outbox_pending), "
          "(SELECT count(*) FROM outbox WHERE txid <> '1' AND txid < '9223372036854775808') "
          "FROM outbox_relay_position p, pg_control_system() c",
      soci::into(cluster), soci::into(here), soci::into(pending), soci::into(issuable);
  EXPECT_EQ(cluster, here) << "the position names this cluster now";
  EXPECT_EQ(pending, 0);
  EXPECT_EQ(issuable, 0) << "a row kept an id this cluster may issue";
  // A row written after the re-base goes out after the others, and no re-base happens again.
  db::enqueueOutbox(*sql, kTopic, key, "after");
  EXPECT_EQ(publishExpected(relay, 1), 1);
  EXPECT_FALSE(db::bindOutboxToCluster(*sql, std::chrono::system_clock::now()).has_value());
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
