#pragma once
// Samples a pipeline's progress (a count that rises as work finishes) every 250 ms on a thread
// of its own, so that a test can say how long the pipeline stood still: the longest stall in a
// window is the longest time between two rises (a test ends its last window when all is done).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace smsgw::testing {

class ProgressRecorder {
 public:
  using Clock = std::chrono::steady_clock;

  // `progress` is read on the recorder's thread.
  explicit ProgressRecorder(std::function<long long()> progress)
      : progress_(std::move(progress)), thread_([this] { run(); }) {}
  ~ProgressRecorder() {
    stop_ = true;
    thread_.join();
  }

  // The longest time in [from, to) that the count did not rise.
  std::chrono::milliseconds longestStall(Clock::time_point from, Clock::time_point to) const {
    std::lock_guard lock(mutex_);
    Clock::duration longest{0};
    Clock::time_point last_rise = from;
    long long last_value = -1;
    for (const auto& sample : samples_) {
      if (sample.at < from) {
        last_value = sample.value;
        continue;
      }
      if (sample.at >= to) break;
      if (sample.value != last_value) {
        last_rise = sample.at;
        last_value = sample.value;
      }
      longest = std::max(longest, sample.at - last_rise);
    }
    return std::chrono::duration_cast<std::chrono::milliseconds>(longest);
  }

 private:
  struct Sample {
    Clock::time_point at;
    long long value;
  };

  void run() {
    while (!stop_) {
      long long value = progress_();
      {
        std::lock_guard lock(mutex_);
        samples_.push_back({Clock::now(), value});
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
  }

  std::function<long long()> progress_;
  mutable std::mutex mutex_;
  std::vector<Sample> samples_;
  std::atomic<bool> stop_{false};
  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace smsgw::testing
