#pragma once
// Settles the first attempts that succeeded in batches (performance issue: webhook deliveries).
// Each used to be a transaction of its own, four round trips and a commit waiting on the WAL;
// here one thread writes whatever succeeded while the previous batch committed, so a burst
// settles in a few transactions and a lone delivery waits for none. `settled` runs once the
// attempt's row is committed (or, after the retries, given up and logged), which is when the
// event's offset may be stored: a dispatcher killed first delivers the event again and the
// receiver drops the repeat by its webhook-id. Thread-safe.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "db/database.h"
#include "domain/clock.h"
#include "services/webhooks/delivery_store.h"

namespace smsgw::workers {

class SuccessBatches {
 public:
  SuccessBatches(db::Database& db, const Clock& clock, size_t max_batch = 256);
  // Writes what is queued, then stops.
  ~SuccessBatches();
  SuccessBatches(const SuccessBatches&) = delete;
  SuccessBatches& operator=(const SuccessBatches&) = delete;

  void add(webhooks::FirstSuccess success, std::function<void()> settled);
  // Returns once nothing waits or is being written (tests, benchmarks).
  void waitIdle();

 private:
  struct Waiting {
    webhooks::FirstSuccess success;
    std::function<void()> settled;
  };
  void run();
  void write(std::vector<Waiting>& batch);

  db::Database& db_;
  const Clock& clock_;
  size_t max_batch_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::condition_variable idle_;
  std::deque<Waiting> waiting_;
  bool writing_ = false;
  bool stopping_ = false;
  std::thread writer_;  // last: started once the rest exists
};

}  // namespace smsgw::workers
