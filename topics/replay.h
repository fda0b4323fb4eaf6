#pragma once
// Replaying a range of a topic through its real handler (pipeline rule 8), for incident
// recovery: `planReplay` turns offsets or times into a span of offsets per partition, and
// `runReplay` reads those spans in order as a member of a consumer group, running each record
// through a RecordRunner exactly as the consume loop would (retries, dead letters). The
// handlers are idempotent, so a replay re-applies only what is missing.
//
// Times are turned into offsets by the broker (offsets-for-times, ListOffsets by timestamp): the
// first record whose timestamp is at or after the time. librdkafka's mock cluster answers "no
// such record" for every partition, so replay by time needs a real Kafka.

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "topics/consumer_loop.h"

namespace smsgw::topics {

struct ReplayRequest {
  std::string topic;
  std::optional<int> partition;           // every partition when unset
  std::optional<long long> from_offset;   // inclusive; the partition's start when unset
  std::optional<long long> to_offset;     // inclusive; the partition's end when unset
  std::optional<long long> from_time_ms;  // the first record at or after this time
  std::optional<long long> to_time_ms;    // only records before this time
};

struct PartitionSpan {
  int partition = 0;
  long long first = 0;  // the first offset replayed
  long long end = 0;    // one past the last
  long long count() const { return end > first ? end - first : 0; }
};

// Throws std::runtime_error when the topic or partition does not exist or the broker cannot be
// reached. `kafka` gives the brokers and settings; its group is not joined.
std::vector<PartitionSpan> planReplay(const ConsumerConfig& kafka, const ReplayRequest& request);

struct ReplayProgress {
  long long total = 0;
  long long done = 0;
  long long applied = 0;
  long long unchanged = 0;  // already applied: the replay changed nothing
  long long dead_lettered = 0;
  double seconds = 0;
};

struct ReplayOptions {
  // Offsets are stored in `group.group_id` as the replay goes; with this set, never at or below
  // the group's committed position (a replay into the live group while its workers are stopped:
  // they resume where they would have, or after the replayed range).
  bool keep_committed = true;
  std::chrono::milliseconds progress_interval{2000};
  std::function<void(const ReplayProgress&)> on_progress;  // every interval and at the end
  // How long to wait for the group to assign every replayed partition: a group with other live
  // members shares them, which a replay must not.
  std::chrono::seconds assignment_timeout{60};
};

// How many members the broker says `group.group_id` has; nothing when the broker cannot tell
// (librdkafka's mock cluster does not describe groups).
std::optional<int> groupMembers(const ConsumerConfig& group);

// Runs the spans of `group.topics[0]`. Returns the counts when every span is done or `stop`
// became true; throws std::runtime_error when the group does not assign every partition.
ReplayProgress runReplay(const ConsumerConfig& group, const std::vector<PartitionSpan>& spans,
                         RecordRunner& runner, const ReplayOptions& options,
                         const std::atomic<bool>& stop);

}  // namespace smsgw::topics
