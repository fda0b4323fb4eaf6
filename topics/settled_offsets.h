#pragma once
// The offsets a consumer may store (pipeline rule 3, offsets after effects): a record's offset
// is stored once it and every record before it in its partition are settled. Handlers that
// settle at once (nearly all) leave nothing waiting here; a record whose effects land later
// (Outcome::settles) holds back the offsets after it, so a crash in between replays it.
// Used by one consume loop or one replay, on its thread.

#include <deque>
#include <future>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "topics/consumer_loop.h"

struct rd_kafka_s;

namespace smsgw::topics {

class SettledOffsets {
 public:
  void handled(const Record& record, std::shared_future<void> settles);
  // Positions at or below `committed` are never stored for that partition: a replay into the
  // live group must not move its workers back over records they already handled.
  void keepAbove(const std::string& topic, int partition, long long committed);
  // Stores every offset now settled (librdkafka commits what is stored).
  void store(rd_kafka_s* consumer);
  // Waits until every record handled so far has settled.
  void waitForAll() const;

 private:
  struct Waiting {
    long long offset;
    std::shared_future<void> settles;  // invalid: settled when handled
  };
  struct Position {
    std::string topic;
    int partition;
    long long next;
  };
  using PartitionKey = std::pair<std::string, int>;
  void ready(const PartitionKey& partition, long long next);

  std::map<PartitionKey, std::deque<Waiting>> waiting_;
  std::map<PartitionKey, long long> floors_;
  std::vector<Position> ready_;
};

}  // namespace smsgw::topics
