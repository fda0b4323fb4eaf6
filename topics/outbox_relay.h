#pragma once
// Publishes committed outbox rows to Kafka (pipeline rule 1) and keeps how far it got.
//
// A row is written once and never updated (migration 0018). Its transaction takes a stamp as it
// commits (migration 0030), and the relay reads the rows after its position in (stamp, id)
// order, up to a stamp no transaction can still commit below (topics/commit_bound.h): records
// leave in the order their transactions committed, so a transaction that waited for another's
// lock, or saw its rows, publishes after it. A transaction left open holds back the stamps
// taken after it began (ops: `idle_in_transaction_session_timeout`).
//
// One relay at a time publishes, across all processes: the leader, which holds a session-level
// advisory lock on a connection of its own, so records leave in outbox order. The leader
// publishes at once when its own process commits (`notify()`), and polls every
// `leader_poll_interval` for rows other processes committed. The others only try to take the
// lead, at most once per `sweep_interval`: a leader that dies drops its connection and with it
// the lock, so another relay takes over within that interval and publishes what was left.
// (Before, every notify in every process ran a pass that mostly found the lock taken: three
// statements each, about a fifth of all statements under load, ops/bench/RESULTS.md.)
// Thread-safe; owns one background thread between start() and stop().

#include <soci/session.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "db/database.h"
#include "db/prepared_statement.h"
#include "domain/clock.h"
#include "topics/commit_bound.h"
#include "topics/producer.h"

namespace smsgw::topics {

struct OutboxRelayConfig {
  std::chrono::milliseconds sweep_interval{500};
  int batch_size = 500;
  std::chrono::milliseconds leader_poll_interval{20};
  // Stamps when the position moved (for an operator reading the table); the system's when null.
  const Clock* clock = nullptr;
};

class OutboxRelay {
 public:
  OutboxRelay(db::Database& db, Producer& producer, OutboxRelayConfig config = {});
  ~OutboxRelay();

  void start();
  void stop();
  void notify();

  // One pass: takes the lead if nobody holds it, then publishes up to batch_size unpublished
  // rows. Returns how many were published (0 also when another relay leads).
  int publishPending();

  // For a record that could not be written to the outbox because the database is away, and
  // that nobody will send again (a carrier's callback): published at once, out of the outbox's
  // order, returning once the broker has it; throws when it does not. Its consumer must take
  // it in any order and more than once, and waits for the database itself.
  void publishWithoutOutbox(const std::string& topic, const std::string& key,
                            const std::string& payload);

 private:
  void loop();
  bool lead();
  void stepDown();
  int publishAsLeader(soci::session& sql);
  void readPosition(soci::session& sql);

  db::Database& db_;
  Producer& producer_;
  OutboxRelayConfig config_;
  SystemClock system_clock_;
  const Clock& clock_;
  db::PreparedStatement read_pending_;  // its limit is config_.batch_size
  std::mutex mutex_;
  std::condition_variable wake_;
  bool pending_ = false;
  bool running_ = false;
  std::thread thread_;
  std::mutex pass_mutex_;  // one pass at a time in this process; guards what follows
  std::unique_ptr<soci::session> connection_;  // the relay's own, holding the lock when leading
  std::atomic<bool> leading_{false};
  struct Position {
    long long stamp = 0;
    long long id = 0;
  };
  std::optional<Position> position_;  // read from outbox_relay_position on taking the lead
  CommitBound bound_;
  // The bound the last read went up to, and whether it may have left rows at or below it.
  std::optional<long long> read_through_;
  bool rows_left_ = false;
  bool attempted_once_ = false;
  std::chrono::steady_clock::time_point last_attempt_;
};

}  // namespace smsgw::topics
