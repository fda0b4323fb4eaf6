#include "services/limits/shared_request_limiter.h"

#include <soci/soci.h>

#include <algorithm>

#include "db/procedures/take_request_slot.h"

namespace smsgw::limits {
namespace {

constexpr std::chrono::minutes kMostFrequentPrune{1};

}  // namespace

SharedRequestLimiter::SharedRequestLimiter(db::Database& db, std::string name, int default_limit,
                                           std::chrono::milliseconds window, const Clock& clock)
    : RequestLimiter(default_limit, window), db_(db), name_(std::move(name)), clock_(clock) {}

RateDecision SharedRequestLimiter::hit(const std::string& key, int limit) {
  limit = std::max(limit, 1);
  const long long now_us = microsecondsSinceEpoch(clock_);
  pruneNow(now_us);
  db::Session sql(db_);
  db::RequestSlot slot = db::takeRequestSlot(
      *sql, {name_ + ":" + key, rateInterval(limit, window()), window(), now_us});
  return rateDecision(slot.allowed, slot.next_arrival_us, now_us, limit, window());
}

void SharedRequestLimiter::pruneNow(long long now_us) {
  const long long every =
      std::max<long long>(window().count(), std::chrono::microseconds(kMostFrequentPrune).count());
  long long last = last_prune_us_.load();
  if (now_us - last < every) return;
  if (!last_prune_us_.compare_exchange_strong(last, now_us)) return;  // another thread prunes
  db::Session sql(db_);
  std::string prefix = name_ + ":";
  *sql << "DELETE FROM request_rate_cells WHERE starts_with(key, :prefix) AND "
          "next_arrival_us <= :now",
      soci::use(prefix, "prefix"), soci::use(now_us, "now");
}

}  // namespace smsgw::limits
