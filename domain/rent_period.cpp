#include "domain/rent_period.h"

#include <cassert>

namespace smsgw {

TimePoint addMonthsClamped(TimePoint anchor, int months) {
  using namespace std::chrono;
  assert(months >= 0);
  auto day_start = floor<days>(anchor);
  auto time_of_day = anchor - day_start;
  year_month_day date{day_start};
  year_month target_month = date.year() / date.month() + std::chrono::months(months);
  auto last_day = (target_month / last).day();
  year_month_day target = target_month / (date.day() > last_day ? last_day : date.day());
  return sys_days{target} + time_of_day;
}

}  // namespace smsgw
