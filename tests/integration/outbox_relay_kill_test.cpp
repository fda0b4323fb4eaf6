// The outbox under stress: relays killed (SIGKILL) at random while writers commit. What a
// consumer reads is told apart three ways: a record never seen is lost, a record seen before an
// earlier one of its key is reordered, a record seen again is a duplicate (a killed leader
// publishes again what it had sent but not yet marked; a consumer keeping the newest it
// applied per key absorbs it). Only duplicates are allowed.
//
// The order promised (topics/README.md): records leave in the order their transactions
// committed (migration 0030), whatever order the transactions took their ids in.
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>
#include <soci/soci.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "db/database.h"
#include "db/outbox.h"
#include "domain/ids.h"
#include "tests/support/child_process.h"
#include "tests/support/kafka_reader.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

constexpr const char* kTopic = "it.scratch";

// Two relay processes on one database; one of them (at random) is killed and started again each
// time the writers' progress passes another `every`. Spread over the writing by its progress,
// not by time, so that a faster or a slower machine meets as many kills mid-writing.
class KilledRelays {
 public:
  KilledRelays(const std::string& database_url, const std::string& run,
               std::function<long()> progress, long every) {
    auto log = (std::filesystem::temp_directory_path() / ("relay-probe-" + run + ".log")).string();
    for (int i = 0; i < 2; ++i) {
      relays_.push_back(std::make_unique<ChildProcess>(
          RELAY_PROBE_PATH,
          std::vector<std::string>{"--database-url", database_url, "--brokers", brokers()},
          std::map<std::string, std::string>{}, log));
      relays_.back()->start();
    }
    killer_ = std::thread([this, progress = std::move(progress), every] {
      std::mt19937 random(std::random_device{}());
      for (long due = every;;) {
        if (progress() >= due) {
          auto& victim = *relays_[random() % relays_.size()];
          victim.kill9();
          ++kills_;
          victim.start();
          due += every;
          continue;
        }
        if (!writing_) break;  // every kill due by the end was made
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
  }
  ~KilledRelays() { writingEnded(); }
  // Returns the kills made.
  int writingEnded() {
    writing_ = false;
    if (killer_.joinable()) killer_.join();
    return kills_.load();
  }

 private:
  std::vector<std::unique_ptr<ChildProcess>> relays_;
  std::atomic<bool> writing_{true};
  std::atomic<int> kills_{0};
  std::thread killer_;
};

bool outboxPublished(db::Database& database) {
  for (int i = 0; i < 300; ++i) {
    db::Session sql(database);
    int left = 0;
    *sql << "SELECT count(*) FROM outbox_pending", soci::into(left);
    if (left == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// What a consumer of the run's keys read, in order, duplicates included: payloads are the
// per-key sequence numbers 0, 1, 2, ...
struct Reading {
  std::vector<std::pair<std::string, int>> in_order;
  std::vector<int> partitions;  // of each record in in_order
  size_t lost = 0, reordered = 0, duplicates = 0;
};

Reading readRun(const std::string& run, const std::map<std::string, int>& expected_per_key) {
  Reading reading;
  std::set<std::pair<std::string, int>> seen;
  size_t expected = 0;
  for (const auto& [key, count] : expected_per_key) expected += static_cast<size_t>(count);
  readRecords(
      kTopic,
      [&](const topics::Record& r) {
        if (r.key.rfind(run, 0) != 0) return false;
        reading.in_order.emplace_back(r.key, std::stoi(r.payload));
        reading.partitions.push_back(r.partition);
        return seen.insert({r.key, std::stoi(r.payload)}).second;
      },
      expected, std::chrono::seconds(60));
  std::map<std::string, int> newest;
  std::set<std::pair<std::string, int>> first_seen;
  for (const auto& [key, n] : reading.in_order) {
    if (!first_seen.insert({key, n}).second) {
      ++reading.duplicates;
      continue;
    }
    auto at = newest.find(key);
    int before = at == newest.end() ? -1 : at->second;
    if (n != before + 1) ++reading.reordered;  // first seen, but not the next of its key
    newest[key] = std::max(before, n);
  }
  for (const auto& [key, count] : expected_per_key) {
    for (int n = 0; n < count; ++n) reading.lost += first_seen.count({key, n}) ? 0 : 1;
  }
  return reading;
}

}  // namespace

// One writer at a time, ten keys a transaction.
TEST(OutboxRelayKilled, ASerialWriterLosesNothingAndKeepsEachKeysOrder) {
  constexpr int kKeys = 10, kPerKey = 300;
  ScratchDatabase scratch;
  db::Database database(scratch.url(), 2);
  std::string run = randomBase62(8);
  std::atomic<long> written{0};
  KilledRelays relays(
      scratch.url(), run, [&] { return written.load(); }, kPerKey / 8);
  for (int n = 0; n < kPerKey; ++n) {
    db::Session sql(database);
    soci::transaction tx(*sql);
    for (int k = 0; k < kKeys; ++k)
      db::enqueueOutbox(*sql, kTopic, run + "-" + std::to_string(k), std::to_string(n));
    tx.commit();
    ++written;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  int kills = relays.writingEnded();
  ASSERT_TRUE(outboxPublished(database));
  std::map<std::string, int> expected;
  for (int k = 0; k < kKeys; ++k) expected[run + "-" + std::to_string(k)] = kPerKey;
  Reading reading = readRun(run, expected);
  EXPECT_EQ(reading.lost, 0u);
  EXPECT_EQ(reading.reordered, 0u);
  std::printf("relays killed %d times; %zu duplicates among %d records\n", kills,
              reading.duplicates, kKeys * kPerKey);
  EXPECT_EQ(kills, 8);
}

// Four writers on six shared keys, each taking the key's lock before its first write and
// committing after a random pause, and a straggler that writes first and commits only after
// twenty others did, over and over: commits land out of transaction-id order all the time, and
// the straggler's records must leave after the twenty on their partition.
TEST(OutboxRelayKilled, ConcurrentWritersCommittingOutOfOrderLoseNothingAndKeepEachKeysOrder) {
  constexpr int kWriters = 4, kPerWriter = 150, kKeys = 6, kStraggles = 12;
  ScratchDatabase scratch;
  db::Database database(scratch.url(), kWriters + 3);
  std::string run = randomBase62(8);
  {
    db::Session sql(database);
    *sql << "CREATE TABLE it_key_counters (key text PRIMARY KEY, next integer NOT NULL)";
    for (int k = 0; k < kKeys; ++k) {
      std::string key = run + "-" + std::to_string(k);
      *sql << "INSERT INTO it_key_counters VALUES (:k, 0)", soci::use(key);
    }
  }
  // The commit order as the writers saw it, per record: a record is (key, n).
  std::mutex commits_mutex;
  std::map<std::pair<std::string, int>, int> commit_rank;
  auto committed = [&](const std::pair<std::string, int>& record) {
    std::lock_guard lock(commits_mutex);
    commit_rank.emplace(record, static_cast<int>(commit_rank.size()));
  };
  std::atomic<int> commits{0};
  constexpr int kCommits = kWriters * kPerWriter;
  KilledRelays relays(
      scratch.url(), run, [&] { return long{commits.load()}; }, kCommits / 10);

  std::vector<std::thread> writers;
  writers.reserve(kWriters);
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      std::mt19937 random(static_cast<uint32_t>(w) * 7919u + std::random_device{}());
      for (int i = 0; i < kPerWriter; ++i) {
        std::string key = run + "-" + std::to_string(random() % kKeys);
        db::Session sql(database);
        soci::transaction tx(*sql);
        *sql << "SELECT pg_advisory_xact_lock(hashtext(:k))", soci::use(key);  // before writing
        int n = 0;
        *sql << "UPDATE it_key_counters SET next = next + 1 WHERE key = :k RETURNING next - 1",
            soci::use(key), soci::into(n);
        db::enqueueOutbox(*sql, kTopic, key, std::to_string(n));
        std::this_thread::sleep_for(std::chrono::milliseconds(random() % 8));
        tx.commit();
        committed({key, n});
        ++commits;
      }
    });
  }
  // On the partition of a writers' key (librdkafka's default partitioner, crc32 of the key, over
  // the 3 partitions ops/test gives it.scratch): order holds only within a partition, and the
  // writers' 6 keys miss a given one of 3 partitions 9% of the time.
  auto partitionOf = [](const std::string& key) {
    return rd_kafka_msg_partitioner_consistent_random(nullptr, key.data(), key.size(), 3, nullptr,
                                                      nullptr);
  };
  std::string straggler_key = run + "-straggler";
  for (int i = 0; partitionOf(straggler_key) != partitionOf(run + "-0"); ++i)
    straggler_key = run + "-straggler-" + std::to_string(i);
  // Per straggler record, how many records had finished committing when its commit began.
  std::map<int, int> committed_before_straggler;
  std::thread straggler([&] {
    for (int n = 0; n < kStraggles; ++n) {
      db::Session sql(database);
      soci::transaction tx(*sql);
      db::enqueueOutbox(*sql, kTopic, straggler_key, std::to_string(n));
      int until = commits.load() + 20;
      while (commits.load() < until && commits.load() < kCommits)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      {
        std::lock_guard lock(commits_mutex);
        committed_before_straggler[n] = static_cast<int>(commit_rank.size());
      }
      tx.commit();
      committed({straggler_key, n});
    }
  });
  for (auto& writer : writers) writer.join();
  straggler.join();
  int kills = relays.writingEnded();
  ASSERT_TRUE(outboxPublished(database));

  std::map<std::string, int> expected;
  {
    db::Session sql(database);
    soci::rowset<soci::row> rows = (sql->prepare << "SELECT key, next FROM it_key_counters");
    for (const auto& row : rows) expected[row.get<std::string>(0)] = row.get<int>(1);
  }
  expected[straggler_key] = kStraggles;
  Reading reading = readRun(run, expected);
  ASSERT_EQ(reading.lost, 0u) << "a committed record never published";
  EXPECT_EQ(reading.reordered, 0u) << "a record published before an earlier one of its key";

  // Commit order across keys: a record that had committed before a straggler's commit began
  // leaves before the straggler's record on their partition, though the straggler took its
  // transaction id first (in id order, each straggler record left ahead of them all).
  std::map<std::pair<std::string, int>, std::pair<size_t, int>> first_at;  // place, partition
  for (size_t i = 0; i < reading.in_order.size(); ++i)
    first_at.emplace(reading.in_order[i], std::make_pair(i, reading.partitions[i]));
  EXPECT_EQ(first_at.at({straggler_key, 0}).second, partitionOf(straggler_key))
      << "the partitioner the test assumes";
  EXPECT_EQ(first_at.at({run + "-0", 0}).second, partitionOf(run + "-0"));
  int compared = 0, overtaken = 0;
  for (const auto& [n, cutoff] : committed_before_straggler) {
    auto [straggler_place, partition] = first_at.at({straggler_key, n});
    for (const auto& [record, rank] : commit_rank) {
      if (rank >= cutoff || record.first == straggler_key) continue;
      auto [place, record_partition] = first_at.at(record);
      if (record_partition != partition) continue;
      ++compared;
      if (place > straggler_place) ++overtaken;
    }
  }
  std::printf(
      "relays killed %d times; %zu records, %zu duplicates; %d of %d records committed before a "
      "straggler's commit were overtaken by it\n",
      kills, commit_rank.size(), reading.duplicates, overtaken, compared);
  EXPECT_EQ(overtaken, 0) << "a record left ahead of one committed before it";
  EXPECT_GT(compared, 0) << "no straggler shared a partition with an earlier commit";
  EXPECT_EQ(kills, 10);
}
