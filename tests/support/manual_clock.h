#pragma once
// A clock tests move by hand (domain/clock.h), starting at the real time so rows it stamps sit
// beside the database's own. Thread-safe.

#include <mutex>

#include "domain/clock.h"

namespace smsgw::testing {

class ManualClock final : public Clock {
 public:
  TimePoint now() const override {
    std::lock_guard lock(mutex_);
    return now_;
  }
  void advance(std::chrono::milliseconds by) {
    std::lock_guard lock(mutex_);
    now_ += by;
  }

 private:
  mutable std::mutex mutex_;
  TimePoint now_ = std::chrono::system_clock::now();
};

}  // namespace smsgw::testing
