#pragma once
// Request limits the whole deployment keeps together: every API instance takes a request's
// slot from the same row in PostgreSQL (db/functions/take_request_slot.sql), so with two
// instances behind a balancer a key still gets its limit, not twice it. The rule is GCRA
// (domain/request_rate.h). Time is the caller's clock, so tests move it by hand; instances'
// clocks kept by NTP differ by milliseconds, which lets at most limit × skew / window more
// through (docs/decisions.md, "Limits the deployment keeps together").
// One statement per request (ops/bench/RESULTS.md, "Limits kept together"). Thread-safe.

#include <atomic>
#include <chrono>
#include <string>

#include "db/database.h"
#include "domain/clock.h"
#include "domain/request_rate.h"

namespace smsgw::limits {

class SharedRequestLimiter final : public RequestLimiter {
 public:
  // `name` keeps this limit's keys apart from another's in the one table ("account",
  // "address", "number_search").
  SharedRequestLimiter(db::Database& db, std::string name, int default_limit,
                       std::chrono::milliseconds window, const Clock& clock);

  using RequestLimiter::hit;
  // Throws what the database throws (the edge answers 503 while it is away).
  RateDecision hit(const std::string& key, int limit) override;

 private:
  // Drops the keys whose time has passed (they are as good as new) once a window, at most
  // once a minute, so the table holds about the keys active lately.
  void pruneNow(long long now_us);

  db::Database& db_;
  std::string name_;
  const Clock& clock_;
  std::atomic<long long> last_prune_us_{0};
};

}  // namespace smsgw::limits
