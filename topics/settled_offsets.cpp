#include "topics/settled_offsets.h"

#include <spdlog/spdlog.h>

#include <optional>

#include "topics/kafka_handles.h"

namespace smsgw::topics {
namespace {

bool settled(const std::shared_future<void>& settles) {
  return !settles.valid() || settles.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

}  // namespace

void SettledOffsets::handled(const Record& record, std::shared_future<void> settles) {
  PartitionKey partition{record.topic, record.partition};
  auto& waiting = waiting_[partition];
  if (waiting.empty() && !settles.valid()) {
    ready(partition, record.offset + 1);
    return;
  }
  waiting.push_back({record.offset, std::move(settles)});
}

void SettledOffsets::keepAbove(const std::string& topic, int partition, long long committed) {
  floors_[{topic, partition}] = committed;
}

void SettledOffsets::ready(const PartitionKey& partition, long long next) {
  auto floor = floors_.find(partition);
  if (floor != floors_.end() && next <= floor->second) return;
  ready_.push_back({partition.first, partition.second, next});
}

void SettledOffsets::store(rd_kafka_s* consumer) {
  for (auto& [partition, waiting] : waiting_) {
    std::optional<long long> next;
    while (!waiting.empty() && settled(waiting.front().settles)) {
      next = waiting.front().offset + 1;
      waiting.pop_front();
    }
    if (next) ready(partition, *next);
  }
  if (ready_.empty()) return;
  PartitionList positions(rd_kafka_topic_partition_list_new(static_cast<int>(ready_.size())));
  for (const auto& position : ready_) {
    rd_kafka_topic_partition_list_add(positions.get(), position.topic.c_str(), position.partition)
        ->offset = position.next;
  }
  ready_.clear();
  rd_kafka_resp_err_t err = rd_kafka_offsets_store(consumer, positions.get());
  if (err) spdlog::warn("offset store: {}", rd_kafka_err2str(err));
}

void SettledOffsets::waitForAll() const {
  for (const auto& [partition, waiting] : waiting_) {
    for (const auto& record : waiting) {
      if (record.settles.valid()) record.settles.wait();
    }
  }
}

}  // namespace smsgw::topics
