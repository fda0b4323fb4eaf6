#include "domain/clock.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cassert>

namespace smsgw {

std::string formatIso(TimePoint t) {
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count() % 1000;
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03d}Z", std::chrono::floor<std::chrono::seconds>(t),
                     ms);
}

std::optional<TimePoint> parseIso(std::string_view text) {
  using namespace std::chrono;
  auto digits = [&](size_t pos, size_t count) -> std::optional<int> {
    if (pos + count > text.size()) return std::nullopt;
    int value = 0;
    for (size_t i = pos; i < pos + count; ++i) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      value = value * 10 + (text[i] - '0');
    }
    return value;
  };
  auto year_value = digits(0, 4), month_value = digits(5, 2), day_value = digits(8, 2);
  if (!year_value || !month_value || !day_value || text[4] != '-' || text[7] != '-') {
    return std::nullopt;
  }
  year_month_day date{year(*year_value), month(static_cast<unsigned>(*month_value)),
                      day(static_cast<unsigned>(*day_value))};
  if (!date.ok()) return std::nullopt;
  // A TimePoint counts nanoseconds in 64 bits: 1677-09-21 to 2262-04-11. A date beyond would
  // overflow (undefined behaviour; UBSan ends the process), so it is refused, a day kept clear
  // of each end for the time of day and the offset added below.
  static const sys_days kEarliest = ceil<days>(TimePoint::min()) + days(1);
  static const sys_days kLatest = floor<days>(TimePoint::max()) - days(1);
  if (sys_days{date} < kEarliest || sys_days{date} > kLatest) return std::nullopt;
  TimePoint result = sys_days{date};
  if (text.size() == 10) return result;

  auto hour_value = digits(11, 2), minute_value = digits(14, 2), second_value = digits(17, 2);
  if (text.size() < 20 || (text[10] != 'T' && text[10] != ' ') || text[13] != ':' ||
      text[16] != ':' || !hour_value || !minute_value || !second_value || *hour_value > 23 ||
      *minute_value > 59 || *second_value > 59) {
    return std::nullopt;
  }
  result += hours(*hour_value) + minutes(*minute_value) + seconds(*second_value);
  size_t pos = 19;
  if (text[pos] == '.') {
    size_t start = ++pos;
    long long fraction = 0, scale = 1;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (pos - start < 6) {
        fraction = fraction * 10 + (text[pos] - '0');
        scale *= 10;
      }
      ++pos;
    }
    if (pos == start) return std::nullopt;
    result += duration_cast<system_clock::duration>(microseconds(fraction * 1'000'000 / scale));
  }
  std::string_view zone = text.substr(pos);
  if (zone == "Z") return result;
  auto offset_hours = digits(pos + 1, 2), offset_minutes = digits(pos + 4, 2);
  if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':' || !offset_hours ||
      !offset_minutes || *offset_hours > 23 || *offset_minutes > 59) {
    return std::nullopt;
  }
  auto offset = hours(*offset_hours) + minutes(*offset_minutes);
  return zone[0] == '+' ? result - offset : result + offset;  // local time minus its offset is UTC
}

TimePoint addMonthsClamped(TimePoint t, int months) {
  using namespace std::chrono;
  assert(months >= 0);
  auto day_start = floor<days>(t);
  auto time_of_day = t - day_start;
  year_month_day date{day_start};
  year_month target_month = date.year() / date.month() + std::chrono::months(months);
  auto last_day = (target_month / last).day();
  year_month_day target = target_month / (date.day() > last_day ? last_day : date.day());
  return sys_days{target} + time_of_day;
}

long long unixSeconds(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

}  // namespace smsgw
