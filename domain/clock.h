#pragma once
// Injected time. Everything time-based (expiry, retries, rent) asks a Clock, so tests can move
// time without sleeping. Implementations are thread-safe.

#include <chrono>
#include <string>

namespace smsgw {

using TimePoint = std::chrono::system_clock::time_point;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint now() const = 0;
};

class SystemClock final : public Clock {
 public:
  TimePoint now() const override { return std::chrono::system_clock::now(); }
};

// ISO 8601 UTC with milliseconds, e.g. 2026-11-22T10:00:00.123Z.
std::string formatIso(TimePoint t);
long long unixSeconds(TimePoint t);

}  // namespace smsgw
