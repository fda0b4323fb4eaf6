#pragma once
// A short database step that must not be lost to a hiccup (a dropped connection, a failover,
// a deadlock): run again, a few times, after a growing pause. Each try should lease its own
// db::Session, whose broken connection is then re-established. The step must be safe to run
// again after a commit whose outcome was lost (guarded by state, or idempotent).

#include <spdlog/spdlog.h>

#include <chrono>
#include <exception>
#include <thread>

namespace smsgw::workers {

// Runs `step` up to `tries` times in all, pausing 200 ms, 400 ms ... between; rethrows the
// last failure.
template <typename Step>
void withRetries(const char* what, int tries, Step&& step) {
  for (int attempt = 1;; ++attempt) {
    try {
      step();
      return;
    } catch (const std::exception& e) {
      if (attempt >= tries) throw;
      spdlog::warn("{} failed, trying again: {}", what, e.what());
      std::this_thread::sleep_for(std::chrono::milliseconds(200 * attempt));
    }
  }
}

}  // namespace smsgw::workers
