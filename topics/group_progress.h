#pragma once
// How far a consumer group has read a topic, judged against what the topic held at earlier
// moments: the reconciler's way to tell a record still waiting behind consumer lag from one the
// broker lost (workers/sender/consumption_gate.h). A group has read everything published before
// a moment once its committed offsets have reached, on every partition, the end offsets the
// topic had at that moment.

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "domain/clock.h"
#include "topics/producer.h"

namespace smsgw::topics {

// A topic's end offsets (one per partition) read at a moment, and the time before which every
// record of the topic had been published by then.
struct TopicMark {
  TimePoint published_through;
  std::vector<long long> ends;
};

// Where a group stands on each partition of a topic: `committed` (a negative value: never
// committed) and the partition's first offset, where a group without a commit starts.
struct GroupPosition {
  std::vector<long long> committed, starts;
};

struct TopicProgress {
  std::vector<long long> ends;
  GroupPosition group;
};

// Marks taken pass after pass. The oldest are dropped beyond `most`, which only makes the answer
// later, never earlier.
class ConsumptionMarks {
 public:
  explicit ConsumptionMarks(size_t most = 4096) : most_(most) {}
  void add(TopicMark mark);
  // The latest `published_through` of a mark the group has read past on every partition, or the
  // last one found before; nullopt while none has been. Marks older than that one are dropped.
  std::optional<TimePoint> consumedThrough(const GroupPosition& position);

 private:
  size_t most_;
  std::deque<TopicMark> marks_;
  std::optional<TimePoint> reached_;
};

// Reads a topic's end offsets and a group's position on it from the cluster (a client of its
// own; it never joins the group). nullopt when the cluster does not answer within `timeout`.
class GroupProgressReader {
 public:
  GroupProgressReader(const std::string& brokers, const KafkaProperties& properties,
                      const std::string& group);
  ~GroupProgressReader();
  GroupProgressReader(const GroupProgressReader&) = delete;
  GroupProgressReader& operator=(const GroupProgressReader&) = delete;

  // The topic's end offsets, then the group's position (read in that order).
  std::optional<TopicProgress> read(const std::string& topic, int partitions,
                                    std::chrono::milliseconds timeout);

 private:
  struct Client;
  std::unique_ptr<Client> client_;
};

}  // namespace smsgw::topics
