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
    if (stopping_ || queue_.size() >= limits_.queue) return Admission::Full;
    Tenant& counts = tenants_[tenant];
    // Counted whole: a job a free thread has not picked up yet is not waiting behind the cap.
    if (counts.running + counts.waiting >= limits_.running_per_tenant + limits_.waiting_per_tenant)
      return Admission::TenantBusy;
    counts.waiting++;
    queue_.push_back({tenant, std::move(job)});
  }
  // Every worker looks: the one woken might find only jobs of a tenant already at its limit.
  ready_.notify_all();
  return Admission::Accepted;
}

bool SlowLane::takeNext(Job& job) {
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    Tenant& counts = tenants_[it->tenant];
    if (counts.running >= limits_.running_per_tenant) continue;
    counts.waiting--;
    counts.running++;
    job = std::move(*it);
    queue_.erase(it);
    return true;
  }
  return false;
}

void SlowLane::work() {
  lowerThisThreadsPriority();
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [&] { return takeNext(job) || (stopping_ && queue_.empty()); });
      if (!job.run) return;  // stopping, and everything queued has run
    }
    job.run();
    {
      std::lock_guard lock(mutex_);
      Tenant& counts = tenants_[job.tenant];
      counts.running--;
      if (counts.running == 0 && counts.waiting == 0) tenants_.erase(job.tenant);
    }
    ready_.notify_all();  // a job of this tenant may run now
  }
}

}  // namespace smsgw::api
