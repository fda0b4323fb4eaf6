#pragma once
// A short database step that must not be lost to a hiccup (a dropped connection, a failover,
// a deadlock): run again, a few times, after a growing pause, and through a database restart. Each
// try should lease its own db::Session, whose broken connection is then re-established. The step
// must be safe to run again after a commit whose outcome was lost (guarded by state, or
// idempotent).

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>

#include "db/error_text.h"

namespace smsgw::workers {

// How long a step waits out the database being away (db::isTransient: a restart, a crash
// and its recovery, a failover) before it gives up: what it holds exists nowhere else (the
// carrier's answer, a webhook delivered), and a restart takes seconds. Below the 60 s after
// which a hand-off counts as stale.
inline constexpr std::chrono::seconds kDatabaseAwayPatience{45};

// Runs `step` up to `tries` times in all, pausing 200 ms, 400 ms ... between, and for as long
// as kDatabaseAwayPatience while its failures are the database being away (pausing at most 2 s
// then); rethrows the last failure.
template <typename Step>
void withRetries(const char* what, int tries, Step&& step) {
  const auto started = std::chrono::steady_clock::now();
  for (int attempt = 1;; ++attempt) {
    try {
      step();
      return;
    } catch (const std::exception& e) {
      bool away =
          db::isTransient(e) && std::chrono::steady_clock::now() - started < kDatabaseAwayPatience;
      if (attempt >= tries && !away) throw;
      spdlog::warn("{} failed, trying again: {}", what, db::describeError(e));
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min(200 * attempt, 2000)));
    }
  }
}

}  // namespace smsgw::workers
