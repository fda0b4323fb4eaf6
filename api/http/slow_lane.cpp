#include "api/http/slow_lane.h"

#include <sys/resource.h>
#include <unistd.h>

namespace smsgw::api {
namespace {

// Linux gives each thread its own nice value: the reactors, which answer everyone's quick
// requests, come first when CPU-heavy slow work (password hashing, large batches) competes.
void lowerThisThreadsPriority() {
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 5);
}

}  // namespace

SlowLane::SlowLane(SlowLaneLimits limits) : limits_(limits) {
  for (int i = 0; i < limits_.threads; ++i) threads_.emplace_back([this] { work(); });
}

SlowLane::~SlowLane() {
  stop();
}

void SlowLane::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

SlowLane::Admission SlowLane::submit(const std::string& tenant, std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    int& count = in_lane_[tenant];
    if (count >= limits_.per_tenant) return Admission::TenantBusy;
    if (stopping_ || queue_.size() >= limits_.queue) {
      if (count == 0) in_lane_.erase(tenant);
      return Admission::Full;
    }
    count++;
    queue_.push_back({tenant, std::move(job)});
  }
  ready_.notify_one();
  return Admission::Accepted;
}

void SlowLane::work() {
  lowerThisThreadsPriority();
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything queued has run
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    job.run();
    std::lock_guard lock(mutex_);
    if (--in_lane_[job.tenant] == 0) in_lane_.erase(job.tenant);
  }
}

}  // namespace smsgw::api
