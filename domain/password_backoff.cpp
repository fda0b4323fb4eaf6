#include "domain/password_backoff.h"

#include <algorithm>

namespace smsgw {

std::chrono::seconds passwordBlockAfter(int failures) {
  if (failures < kFreePasswordFailures) return std::chrono::seconds(0);
  int doublings = std::min(failures - kFreePasswordFailures, 16);  // past the ceiling anyway
  std::chrono::seconds block(kFirstPasswordBlock.count() << doublings);
  return std::min(block, kLongestPasswordBlock);
}

}  // namespace smsgw
