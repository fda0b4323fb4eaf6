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
// Reads an ISO 8601 date-time with its offset ("2027-01-15T00:00:00Z", "…T09:30:00-05:00",
// fractional seconds allowed) or a date ("2027-01-15", midnight UTC). Nothing for anything else.
std::optional<TimePoint> parseIso(std::string_view text);
long long unixSeconds(TimePoint t);

// `t` plus `months` calendar months (months >= 0) in UTC, time of day kept; a day past the end
// of the target month is clamped to it (Jan 31 + 1 month = Feb 28 or 29).
TimePoint addMonthsClamped(TimePoint t, int months);

}  // namespace smsgw
