#pragma once
// Injected time. Everything time-based (expiry, retries, rent) asks a Clock, so tests can move
// time without sleeping. Implementations are thread-safe.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

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
// Reads an ISO 8601 UTC date-time ("2027-01-15T00:00:00Z", fractional seconds allowed, or
// "+00:00") or a date ("2027-01-15", midnight UTC). Nothing for anything else.
std::optional<TimePoint> parseIso(std::string_view text);
long long unixSeconds(TimePoint t);

}  // namespace smsgw
