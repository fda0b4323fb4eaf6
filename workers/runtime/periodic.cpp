#include "workers/runtime/periodic.h"

#include <spdlog/spdlog.h>

#include "db/error_text.h"

namespace smsgw::workers {

Periodic::Periodic(std::string what, std::chrono::milliseconds interval, std::function<void()> work)
    : what_(std::move(what)), interval_(interval), work_(std::move(work)) {
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      lock.unlock();
      try {
        work_();
      } catch (const std::exception& e) {
        spdlog::error("{} failed, retrying next time: {}", what_, db::describeError(e));
      }
      lock.lock();
      wake_.wait_for(lock, interval_, [this] { return stopping_; });
    }
  });
}

Periodic::~Periodic() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

}  // namespace smsgw::workers
