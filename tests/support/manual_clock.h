#pragma once
// Clocks tests control (domain/clock.h): ManualClock stands still until moved; SkippingClock
// runs with real time and can jump ahead. Both start at the real time, so rows they stamp sit
// beside the database's own. Thread-safe.

#include <chrono>
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

// Real time plus whatever a test skipped ahead: rows the database stamps with now() stay in step
// with it, and a test jumps over a wait (a pacing slot) instead of sleeping. Thread-safe.
class SkippingClock final : public Clock {
 public:
  TimePoint now() const override {
    std::lock_guard lock(mutex_);
    return std::chrono::system_clock::now() + skipped_;
  }
  void skip(std::chrono::milliseconds by) {
    std::lock_guard lock(mutex_);
    skipped_ += by;
  }

 private:
  mutable std::mutex mutex_;
  std::chrono::milliseconds skipped_{0};
};

}  // namespace smsgw::testing
