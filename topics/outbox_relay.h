#pragma once
// Publishes committed outbox rows to Kafka and marks them published (DESIGN.md rule 1).
// `notify()` after a commit publishes at once; a timed pass every `sweep_interval` is the
// sweeper that republishes whatever a crash between commit and publish left behind.
// One pass at a time across all processes (advisory lock), so records leave in outbox order.
// Thread-safe; owns one background thread between start() and stop().

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "db/database.h"
#include "topics/producer.h"

namespace smsgw::topics {

struct OutboxRelayConfig {
  std::chrono::milliseconds sweep_interval{500};
  int batch_size = 500;
};

class OutboxRelay {
 public:
  OutboxRelay(db::Database& db, Producer& producer, OutboxRelayConfig config = {});
  ~OutboxRelay();

  void start();
  void stop();
  void notify();

  // One pass: publishes up to batch_size unpublished rows. Returns how many were published
  // (0 also when another process holds the pass).
  int publishPending();

 private:
  void loop();

  db::Database& db_;
  Producer& producer_;
  OutboxRelayConfig config_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool pending_ = false;
  bool running_ = false;
  std::thread thread_;
};

}  // namespace smsgw::topics
