#pragma once
// A bounded set of delivery threads shared fairly between endpoints (webhooks issue: "one slow
// endpoint must not delay other accounts' deliveries"). Each endpoint has at most
// `per_endpoint` attempts running and at most `endpoint_backlog` waiting; endpoints with work
// take turns, so an endpoint that hangs holds `per_endpoint` threads and no more.
// Destroying the pool parks every job not started (so its event is owed in PostgreSQL rather
// than lost) and waits for the running ones.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace smsgw::workers {

struct DeliveryJob {
  std::function<void()> run;
  std::function<void()> park;  // called instead of run when the pool closes first
};

struct DeliveryPoolLimits {
  int threads = 32;
  int per_endpoint = 4;
  size_t endpoint_backlog = 1000;
};

class DeliveryPool {
 public:
  explicit DeliveryPool(DeliveryPoolLimits limits);
  ~DeliveryPool();
  DeliveryPool(const DeliveryPool&) = delete;
  DeliveryPool& operator=(const DeliveryPool&) = delete;

  // False when the endpoint's backlog is full (the caller dead-letters the event `queue_full`).
  bool submit(const std::string& endpoint_id, DeliveryJob job);
  struct Capacity {
    // Threads neither busy nor spoken for by a job that could start now: what a retry pass
    // may claim.
    size_t spare = 0;
    std::vector<std::string> saturated;  // endpoints running as many attempts as they may
  };
  Capacity capacity() const;
  // Returns once nothing waits or runs (tests and benchmarks).
  void waitIdle() const;

 private:
  struct EndpointQueue {
    std::deque<DeliveryJob> waiting;
    int running = 0;
    bool in_turn = false;  // listed in turns_
  };

  void work();
  void offerTurn(const std::string& endpoint_id, EndpointQueue& queue);

  DeliveryPoolLimits limits_;
  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  mutable std::condition_variable idle_;
  std::map<std::string, EndpointQueue> endpoints_;
  std::deque<std::string> turns_;  // endpoints with a job waiting and room to run it
  size_t waiting_ = 0;
  size_t running_ = 0;
  bool closing_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace smsgw::workers
