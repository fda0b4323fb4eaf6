#pragma once
// The carrier asked us to wait: Telnyx answers a send over its rate with 429 and the seconds
// until its window resets. Until then a sender tries no hand-off: a message due meanwhile stays
// QUEUED and goes when the hold ends, instead of being sent into the same refusal. The send
// that met the 429 goes back in the queue for the same moment (services/messaging/handoffs.h).
// Telnyx documents its 429 as the API key's rate limit, so the hold covers every number the
// process sends from, not only the one that met it. Thread-safe: one per sender process,
// shared by its consume loops and its sweep; each process learns from its own 429s.

#include <chrono>
#include <mutex>
#include <optional>

#include "domain/clock.h"

namespace smsgw {

class CarrierHold {
 public:
  // A 429 that names no wait holds for kUnsaid; no wait is held longer than kLongest, so a
  // wrong header cannot stop sending for long (the next 429 holds again).
  static constexpr std::chrono::seconds kUnsaid{1};
  static constexpr std::chrono::seconds kLongest{60};

  // The wait a 429 that asked for `asked` means, clamped as above (also the Retry-After an
  // owner-phone code passes on to the client).
  static std::chrono::seconds waitFor(std::chrono::seconds asked);
  // Holds until `now` plus waitFor(asked); an earlier hold still running is kept
  // when it ends later.
  void holdFor(TimePoint now, std::chrono::seconds asked);
  // When the hold ends, while it lasts; nothing once it is over.
  std::optional<TimePoint> heldUntil(TimePoint now) const;

 private:
  mutable std::mutex mutex_;
  TimePoint until_{};
};

}  // namespace smsgw
