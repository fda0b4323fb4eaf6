#include "domain/carrier_hold.h"

#include <algorithm>

namespace smsgw {

std::chrono::seconds CarrierHold::waitFor(std::chrono::seconds asked) {
  return asked <= std::chrono::seconds(0) ? kUnsaid : std::min(asked, kLongest);
}

void CarrierHold::holdFor(TimePoint now, std::chrono::seconds asked) {
  std::chrono::seconds wait = waitFor(asked);
  std::lock_guard lock(mutex_);
  until_ = std::max(until_, now + wait);
}

std::optional<TimePoint> CarrierHold::heldUntil(TimePoint now) const {
  std::lock_guard lock(mutex_);
  if (now >= until_) return std::nullopt;
  return until_;
}

}  // namespace smsgw
