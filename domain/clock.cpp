#include "domain/clock.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

namespace smsgw {

std::string formatIso(TimePoint t) {
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count() % 1000;
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03d}Z", std::chrono::floor<std::chrono::seconds>(t),
                     ms);
}

long long unixSeconds(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

}  // namespace smsgw
