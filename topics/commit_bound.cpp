#include "topics/commit_bound.h"

#include <algorithm>

namespace smsgw::topics {

std::optional<long long> CommitBound::advance(const CommitHorizon& horizon) {
  auto raise = [this](long long stamp) { bound_ = std::max(bound_.value_or(stamp), stamp); };
  while (!waiting_.empty() && waiting_.front().running < horizon.oldest) {
    raise(waiting_.front().stamp);
    waiting_.pop_front();
  }
  if (!horizon.running || *horizon.running < horizon.oldest) {
    raise(horizon.stamp);
    waiting_.clear();  // every one waiting has a lower stamp
  } else if (waiting_.size() < kMaxWaiting &&
             (waiting_.empty() || waiting_.back().stamp < horizon.stamp)) {
    // A candidate with no newer stamp than the last one waiting would only wait longer.
    waiting_.push_back({horizon.stamp, *horizon.running});
  }
  return bound_;
}

}  // namespace smsgw::topics
