#include "topics/group_progress.h"

#include <algorithm>

#include "topics/kafka_handles.h"

namespace smsgw::topics {
namespace {

bool readPast(const TopicMark& mark, const GroupPosition& position) {
  if (position.committed.size() != mark.ends.size() || position.starts.size() != mark.ends.size())
    return false;  // the topic changed shape: a later mark, of the new shape, decides
  for (size_t p = 0; p < mark.ends.size(); ++p) {
    // A group that never committed on a partition starts at its first offset (earliest).
    long long at = position.committed[p] >= 0 ? position.committed[p] : position.starts[p];
    if (at < mark.ends[p]) return false;
  }
  return true;
}

}  // namespace

void ConsumptionMarks::add(TopicMark mark) {
  marks_.push_back(std::move(mark));
  while (marks_.size() > most_) marks_.pop_front();
}

std::optional<TimePoint> ConsumptionMarks::consumedThrough(const GroupPosition& position) {
  // The newest mark read past wins; every older one is then of no further use.
  for (auto it = marks_.rbegin(); it != marks_.rend(); ++it) {
    if (!readPast(*it, position)) continue;
    reached_ = std::max(reached_.value_or(it->published_through), it->published_through);
    marks_.erase(marks_.begin(), it.base());
    break;
  }
  return reached_;
}

struct GroupProgressReader::Client {
  KafkaHandle handle;
};

GroupProgressReader::GroupProgressReader(const std::string& brokers,
                                         const KafkaProperties& properties,
                                         const std::string& group)
    : client_(std::make_unique<Client>()) {
  KafkaConf conf = newKafkaConf();
  setKafkaConf(conf.get(), "bootstrap.servers", brokers);
  setKafkaConfs(conf.get(), properties);
  setKafkaConf(conf.get(), "group.id", group);
  setKafkaConf(conf.get(), "enable.auto.commit", "false");
  client_->handle = newKafka(RD_KAFKA_CONSUMER, std::move(conf));
}

GroupProgressReader::~GroupProgressReader() = default;

std::optional<TopicProgress> GroupProgressReader::read(const std::string& topic, int partitions,
                                                       std::chrono::milliseconds timeout) {
  auto ms = static_cast<int>(timeout.count());
  TopicProgress progress;
  for (int p = 0; p < partitions; ++p) {
    int64_t low = 0, high = 0;
    if (rd_kafka_query_watermark_offsets(client_->handle.get(), topic.c_str(), p, &low, &high,
                                         ms) != RD_KAFKA_RESP_ERR_NO_ERROR)
      return std::nullopt;
    progress.group.starts.push_back(low);
    progress.ends.push_back(high);
  }
  // Read after the ends: a commit at or past them covers every record they counted.
  PartitionList list(rd_kafka_topic_partition_list_new(partitions));
  for (int p = 0; p < partitions; ++p)
    rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), p);
  if (rd_kafka_committed(client_->handle.get(), list.get(), ms) != RD_KAFKA_RESP_ERR_NO_ERROR)
    return std::nullopt;
  progress.group.committed.assign(static_cast<size_t>(partitions), -1);
  for (int i = 0; i < list->cnt; ++i) {
    const auto& element = list->elems[i];
    if (element.err || element.partition < 0 || element.partition >= partitions)
      return std::nullopt;
    progress.group.committed[static_cast<size_t>(element.partition)] = element.offset;
  }
  return progress;
}

}  // namespace smsgw::topics
