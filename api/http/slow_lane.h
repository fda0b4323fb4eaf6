#pragma once
// Runs the requests that wait on something slow (the carrier, a customer's server, DNS,
// password hashing, a 10,000-row batch) off Pistache's reactor threads. A reactor thread
// serves every connection it holds, so one slow request there stalls every other request on
// it, whatever the account. Here they wait on threads of their own instead:
// - at most `threads` run at once, at a lower CPU priority than the reactors;
// - each tenant (an account, or a client address before authentication) may have at most
//   `per_tenant` requests here at once, running or queued: one more is refused at once (the
//   edge answers 429), so no account can hold every thread;
// - at most `queue` wait; beyond that every tenant is refused (503) until some finish.
// Thread-safe. stop() (or the destructor) runs what was queued, then joins; later submissions
// are refused as Full.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace smsgw::api {

struct SlowLaneLimits {
  int threads = 8;
  int per_tenant = 4;
  size_t queue = 256;
};

class SlowLane {
 public:
  enum class Admission { Accepted, TenantBusy, Full };

  explicit SlowLane(SlowLaneLimits limits);
  ~SlowLane();
  SlowLane(const SlowLane&) = delete;
  SlowLane& operator=(const SlowLane&) = delete;

  // Queues `job` unless the tenant or the lane is at its limit. A job must not throw.
  Admission submit(const std::string& tenant, std::function<void()> job);
  void stop();
  int perTenant() const { return limits_.per_tenant; }

 private:
  struct Job {
    std::string tenant;
    std::function<void()> run;
  };
  void work();

  SlowLaneLimits limits_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Job> queue_;
  std::unordered_map<std::string, int> in_lane_;  // per tenant: queued or running
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace smsgw::api
