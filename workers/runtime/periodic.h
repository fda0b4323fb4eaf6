#pragma once
// Runs `work` every `interval` on its own thread, the first time at once, until destroyed (the
// destructor wakes and joins it). A failing run is logged and tried again at the next interval.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace smsgw::workers {

class Periodic {
 public:
  Periodic(std::string what, std::chrono::milliseconds interval, std::function<void()> work);
  ~Periodic();
  Periodic(const Periodic&) = delete;
  Periodic& operator=(const Periodic&) = delete;

 private:
  std::string what_;
  std::chrono::milliseconds interval_;
  std::function<void()> work_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace smsgw::workers
