#include "topics/replay.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "topics/kafka_handles.h"
#include "topics/settled_offsets.h"

namespace smsgw::topics {
namespace {

constexpr int kBrokerTimeoutMs = 10000;

// A consumer of `config`'s brokers in `group`: offsets are stored by hand and committed in the
// background; `rebalance` (with its opaque) takes assignments when the group is joined.
KafkaHandle connect(const ConsumerConfig& config, const std::string& group,
                    void (*rebalance)(rd_kafka_t*, rd_kafka_resp_err_t,
                                      rd_kafka_topic_partition_list_t*, void*) = nullptr,
                    void* opaque = nullptr) {
  KafkaConf conf = newKafkaConf();
  auto set = [&conf](const char* name, const std::string& value) {
    setKafkaConf(conf.get(), name, value);
  };
  set("bootstrap.servers", config.brokers);
  set("group.id", group);
  set("enable.auto.offset.store", "false");
  set("enable.auto.commit", "true");
  set("auto.commit.interval.ms", "1000");
  set("enable.partition.eof", "true");
  set("session.timeout.ms", std::to_string(config.session_timeout_ms));
  set("heartbeat.interval.ms", std::to_string(std::max(100, config.session_timeout_ms / 6)));
  set("fetch.wait.max.ms", std::to_string(config.fetch_wait_max_ms));
  setKafkaConfs(conf.get(), config.properties);
  if (rebalance) {
    rd_kafka_conf_set_rebalance_cb(conf.get(), rebalance);
    rd_kafka_conf_set_opaque(conf.get(), opaque);
  }
  KafkaHandle consumer = newKafka(RD_KAFKA_CONSUMER, std::move(conf));
  rd_kafka_poll_set_consumer(consumer.get());
  return consumer;
}

int partitionCount(rd_kafka_t* consumer, const std::string& topic) {
  KafkaTopic handle(rd_kafka_topic_new(consumer, topic.c_str(), nullptr));
  const rd_kafka_metadata_t* raw = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(consumer, 0, handle.get(), &raw, kBrokerTimeoutMs);
  if (err) throw std::runtime_error("metadata of " + topic + ": " + rd_kafka_err2str(err));
  KafkaMetadata metadata(raw);
  if (metadata->topic_cnt != 1 || metadata->topics[0].err || metadata->topics[0].partition_cnt < 1)
    throw std::runtime_error("no topic " + topic + " on the broker");
  return metadata->topics[0].partition_cnt;
}

struct Watermarks {
  long long low = 0;
  long long high = 0;  // one past the last record
};

Watermarks watermarks(rd_kafka_t* consumer, const std::string& topic, int partition) {
  int64_t low = 0, high = 0;
  rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(consumer, topic.c_str(), partition,
                                                             &low, &high, kBrokerTimeoutMs);
  if (err) throw std::runtime_error("watermarks of " + topic + ": " + rd_kafka_err2str(err));
  return {low, high};
}

// Per partition, the first offset at or after `time_ms` (`high` when there is none), as the
// broker's offsets-for-times (ListOffsets by timestamp) answers.
std::map<int, long long> offsetsAtTime(rd_kafka_t* consumer, const std::string& topic,
                                       const std::map<int, Watermarks>& partitions,
                                       long long time_ms) {
  PartitionList query(rd_kafka_topic_partition_list_new(static_cast<int>(partitions.size())));
  for (const auto& [partition, marks] : partitions)
    rd_kafka_topic_partition_list_add(query.get(), topic.c_str(), partition)->offset = time_ms;
  rd_kafka_resp_err_t err = rd_kafka_offsets_for_times(consumer, query.get(), kBrokerTimeoutMs);
  if (err) throw std::runtime_error("offsets of " + topic + " by time: " + rd_kafka_err2str(err));
  std::map<int, long long> offsets;
  for (int i = 0; i < query->cnt; ++i) {
    const auto& element = query->elems[i];
    if (element.err) {
      throw std::runtime_error("offsets of " + topic + "/" + std::to_string(element.partition) +
                               " by time: " + rd_kafka_err2str(element.err));
    }
    const Watermarks& marks = partitions.at(element.partition);
    // -1: no record at or after the time.
    offsets[element.partition] = element.offset < 0
                                     ? marks.high
                                     : std::clamp<long long>(element.offset, marks.low, marks.high);
  }
  return offsets;
}

// What the group assigned this replay, kept by the rebalance callback.
struct Assignment {
  std::string topic;
  std::map<int, PartitionSpan> spans;  // the partitions with something to replay
  std::set<int> held;
};

void onRebalance(rd_kafka_t* consumer, rd_kafka_resp_err_t err,
                 rd_kafka_topic_partition_list_t* partitions, void* opaque) {
  auto* assignment = static_cast<Assignment*>(opaque);
  if (err != RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    rd_kafka_assign(consumer, nullptr);
    assignment->held.clear();
    return;
  }
  // Of what the group gives, fetch only the replayed partitions, each from its span's start.
  PartitionList mine(rd_kafka_topic_partition_list_new(partitions->cnt));
  for (int i = 0; i < partitions->cnt; ++i) {
    auto span = assignment->spans.find(partitions->elems[i].partition);
    if (span == assignment->spans.end()) continue;
    rd_kafka_topic_partition_list_add(mine.get(), assignment->topic.c_str(), span->first)->offset =
        span->second.first;
    assignment->held.insert(span->first);
  }
  rd_kafka_assign(consumer, mine.get());
}

// Keeps the group's committed positions of the replayed partitions out of reach.
void keepCommitted(rd_kafka_t* consumer, const Assignment& assignment, SettledOffsets& offsets) {
  PartitionList committed(
      rd_kafka_topic_partition_list_new(static_cast<int>(assignment.spans.size())));
  for (const auto& [partition, span] : assignment.spans)
    rd_kafka_topic_partition_list_add(committed.get(), assignment.topic.c_str(), partition);
  rd_kafka_resp_err_t err = rd_kafka_committed(consumer, committed.get(), kBrokerTimeoutMs);
  if (err) throw std::runtime_error(std::string("committed offsets: ") + rd_kafka_err2str(err));
  for (int i = 0; i < committed->cnt; ++i) {
    const auto& element = committed->elems[i];
    if (element.offset >= 0) offsets.keepAbove(assignment.topic, element.partition, element.offset);
  }
}

}  // namespace

std::vector<PartitionSpan> planReplay(const ConsumerConfig& kafka, const ReplayRequest& request) {
  KafkaHandle consumer = connect(kafka, kafka.group_id + ".plan");
  int partitions = partitionCount(consumer.get(), request.topic);
  std::map<int, Watermarks> marks;
  for (int p = 0; p < partitions; ++p) {
    if (!request.partition || *request.partition == p)
      marks[p] = watermarks(consumer.get(), request.topic, p);
  }
  if (marks.empty()) {
    throw std::runtime_error(request.topic + " has no partition " +
                             std::to_string(*request.partition) + " (it has " +
                             std::to_string(partitions) + ")");
  }
  std::map<int, long long> from_time, to_time;
  if (request.from_time_ms)
    from_time = offsetsAtTime(consumer.get(), request.topic, marks, *request.from_time_ms);
  if (request.to_time_ms)
    to_time = offsetsAtTime(consumer.get(), request.topic, marks, *request.to_time_ms);

  std::vector<PartitionSpan> spans;
  for (const auto& [p, range] : marks) {
    PartitionSpan span{p, range.low, range.high};
    if (request.from_offset) span.first = std::clamp(*request.from_offset, range.low, range.high);
    if (request.from_time_ms) span.first = from_time[p];
    if (request.to_offset) span.end = std::clamp(*request.to_offset + 1, range.low, range.high);
    if (request.to_time_ms) span.end = to_time[p];
    span.end = std::max(span.first, span.end);
    spans.push_back(span);
  }
  return spans;
}

std::optional<int> groupMembers(const ConsumerConfig& group) {
  KafkaHandle consumer = connect(group, group.group_id + ".plan");
  const rd_kafka_group_list* raw = nullptr;
  rd_kafka_resp_err_t err =
      rd_kafka_list_groups(consumer.get(), group.group_id.c_str(), &raw, kBrokerTimeoutMs);
  if (err || !raw) return std::nullopt;
  std::unique_ptr<const rd_kafka_group_list, void (*)(const rd_kafka_group_list*)> list(
      raw, rd_kafka_group_list_destroy);
  int members = 0;
  for (int i = 0; i < list->group_cnt; ++i) {
    if (list->groups[i].err) return std::nullopt;
    members += list->groups[i].member_cnt;
  }
  return members;
}

ReplayProgress runReplay(const ConsumerConfig& group, const std::vector<PartitionSpan>& spans,
                         RecordRunner& runner, const ReplayOptions& options,
                         const std::atomic<bool>& stop) {
  Assignment assignment{group.topics.at(0), {}, {}};
  ReplayProgress progress;
  for (const auto& span : spans) {
    progress.total += span.count();
    if (span.count() > 0) assignment.spans[span.partition] = span;
  }
  const auto started = std::chrono::steady_clock::now();
  auto report = [&] {
    progress.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (options.on_progress) options.on_progress(progress);
  };
  if (assignment.spans.empty()) {
    report();
    return progress;
  }

  KafkaHandle consumer = connect(group, group.group_id, onRebalance, &assignment);
  SettledOffsets offsets;
  if (options.keep_committed) keepCommitted(consumer.get(), assignment, offsets);
  PartitionList subscription(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(subscription.get(), assignment.topic.c_str(),
                                    RD_KAFKA_PARTITION_UA);
  if (rd_kafka_resp_err_t err = rd_kafka_subscribe(consumer.get(), subscription.get()))
    throw std::runtime_error(std::string("subscribe: ") + rd_kafka_err2str(err));

  std::set<int> finished;
  auto finish = [&](int partition) {
    if (!finished.insert(partition).second) return;
    PartitionList paused(rd_kafka_topic_partition_list_new(1));
    rd_kafka_topic_partition_list_add(paused.get(), assignment.topic.c_str(), partition);
    rd_kafka_pause_partitions(consumer.get(), paused.get());
  };
  auto assignment_deadline = started + options.assignment_timeout;
  auto next_report = started + options.progress_interval;
  while (!stop.load() && finished.size() < assignment.spans.size()) {
    KafkaMessage message(rd_kafka_consumer_poll(consumer.get(), 200));
    auto now = std::chrono::steady_clock::now();
    if (assignment.held.size() < assignment.spans.size() && now > assignment_deadline) {
      throw std::runtime_error("group " + group.group_id + " assigned " +
                               std::to_string(assignment.held.size()) + " of the " +
                               std::to_string(assignment.spans.size()) +
                               " partitions to replay: another member holds the rest");
    }
    if (message) {
      auto span = assignment.spans.find(message->partition);
      if (span == assignment.spans.end() || message->offset < span->second.first) continue;
      if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        if (message->offset >= span->second.end) finish(message->partition);
      } else if (message->err) {
        spdlog::warn("replay: {}", rd_kafka_message_errstr(message.get()));
      } else if (message->offset >= span->second.end) {
        finish(message->partition);
      } else {
        Record record = recordFromMessage(message.get());
        auto result = runner.run(record, stop);
        if (result.handled == RecordRunner::Handled::Interrupted) break;
        ++progress.done;
        if (result.handled == RecordRunner::Handled::Applied) ++progress.applied;
        if (result.handled == RecordRunner::Handled::Unchanged) ++progress.unchanged;
        if (result.handled == RecordRunner::Handled::DeadLettered) ++progress.dead_lettered;
        offsets.handled(record, std::move(result.settles));
        if (record.offset + 1 >= span->second.end) finish(record.partition);
      }
    }
    offsets.store(consumer.get());
    if (now >= next_report) {
      report();
      next_report = now + options.progress_interval;
    }
  }
  offsets.waitForAll();
  offsets.store(consumer.get());
  rd_kafka_consumer_close(consumer.get());  // commits what was stored and leaves the group
  report();
  return progress;
}

}  // namespace smsgw::topics
