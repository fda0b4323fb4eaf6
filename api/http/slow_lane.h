#pragma once
// Runs the requests that wait on something slow (the carrier, a customer's server, DNS,
// password hashing, a 10,000-row batch) off Pistache's reactor threads. A reactor thread
// serves every connection it holds, so one slow request there stalls every other request on
// it, whatever the account. Here they wait on threads of their own instead:
// - at most `threads` run at once, at a lower CPU priority than the reactors;
// - each tenant (an account, or a client address before authentication) runs at most
//   `running_per_tenant` at once, so no tenant holds every thread: its next ones wait while
//   other tenants' run, oldest first among those allowed to run;
// - each tenant may have `waiting_per_tenant` waiting; one more is refused at once
//   (TenantBusy: the edge answers 429), and at most `queue` wait in all (Full: 503).
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
  int running_per_tenant = 4;
  int waiting_per_tenant = 32;
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
  const SlowLaneLimits& limits() const { return limits_; }

 private:
  struct Job {
    std::string tenant;
    std::function<void()> run;
  };
  struct Tenant {
    int running = 0;
    int waiting = 0;
  };
  bool takeNext(Job& job);  // under mutex_: the oldest job whose tenant may run one more
  void work();

  SlowLaneLimits limits_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Job> queue_;
  std::unordered_map<std::string, Tenant> tenants_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace smsgw::api
