#pragma once
// Monthly rent periods of a phone number, on the anniversary of its provisioning (UTC).
// Period 1 is the first month, paid with the purchase; period n starts n-1 months after the
// anchor. Days past a month's end are clamped to it, always from the anchor, never from the
// previous period: Jan 31 gives Feb 28 (29 in leap years), then Mar 31, Apr 30.

#include "domain/clock.h"

namespace smsgw {

// When rent period `period` (>= 1) of a number provisioned at `anchor` starts and is due.
inline TimePoint rentPeriodStart(TimePoint anchor, int period) {
  return addMonthsClamped(anchor, period - 1);
}

}  // namespace smsgw
