#include "domain/carrier_hold.h"

#include <algorithm>

namespace smsgw {

void CarrierHold::holdFor(TimePoint now, std::chrono::seconds asked) {
  std::chrono::seconds wait =
      asked <= std::chrono::seconds(0) ? kUnsaid : std::min(asked, kLongest);
  std::lock_guard lock(mutex_);
  until_ = std::max(until_, now + wait);
}

std::optional<TimePoint> CarrierHold::heldUntil(TimePoint now) const {
  std::lock_guard lock(mutex_);
  if (now >= until_) return std::nullopt;
  return until_;
}

}  // namespace smsgw
