#include "topics/consumer_loop.h"

#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <csignal>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "adapters/log.h"
#include "adapters/metrics.h"
#include "db/error_text.h"
#include "topics/catalogue.h"
#include "topics/kafka_handles.h"
#include "topics/records.h"
#include "topics/settled_offsets.h"

namespace smsgw::topics {
namespace {

std::atomic<bool> g_stop_requested{false};

// librdkafka's statistics (every few seconds): each partition's consumer lag becomes a gauge.
int onStatistics(rd_kafka_t*, char* json, size_t length, void* opaque) {
  const auto* group = static_cast<const std::string*>(opaque);
  auto stats = nlohmann::json::parse(std::string_view(json, length), nullptr, false);
  if (stats.is_discarded() || !stats.contains("topics")) return 0;
  for (const auto& [topic, data] : stats["topics"].items()) {
    if (!data.contains("partitions")) continue;
    for (const auto& [partition, numbers] : data["partitions"].items()) {
      long long lag = numbers.value("consumer_lag", -1LL);
      if (partition == "-1" || lag < 0) continue;
      metrics::consumerLag(*group, topic, std::stoi(partition), lag);
    }
  }
  return 0;  // librdkafka frees the text
}

// The background commit of the stored offsets (every 500 ms, and when partitions are revoked):
// counted, so an operator sees commits fail, and a test can wait for a commit to have happened
// instead of sleeping. With nothing stored since the last one, librdkafka reports
// _NO_OFFSET, which is no failure.
void onOffsetCommit(rd_kafka_t*, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t*,
                    void* opaque) {
  const auto* group = static_cast<const std::string*>(opaque);
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
    metrics::offsetsCommitted(*group, "committed");
  } else if (err == RD_KAFKA_RESP_ERR__NO_OFFSET) {
    metrics::offsetsCommitted(*group, "nothing_new");
  } else {
    metrics::offsetsCommitted(*group, "failed");
    spdlog::warn("group {}: could not commit offsets: {}", *group, rd_kafka_err2str(err));
  }
}

// What a rebalance gives or takes, applied the way the group's protocol wants: an eager one
// (range, roundrobin) takes every partition from every member and hands the whole assignment
// out again; a cooperative one (cooperative-sticky) moves only the partitions that change
// owner, and the others keep being consumed through it. Logged and counted either way.
void onRebalance(rd_kafka_t* consumer, rd_kafka_resp_err_t err,
                 rd_kafka_topic_partition_list_t* partitions, void* opaque) {
  const auto* group = static_cast<const std::string*>(opaque);
  const bool assigned = err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS;
  const std::string protocol = rd_kafka_rebalance_protocol(consumer);
  std::string failure;
  if (protocol == "COOPERATIVE") {
    rd_kafka_error_t* error = assigned ? rd_kafka_incremental_assign(consumer, partitions)
                                       : rd_kafka_incremental_unassign(consumer, partitions);
    if (error) {
      failure = rd_kafka_error_string(error);
      rd_kafka_error_destroy(error);
    }
  } else if (rd_kafka_resp_err_t e = rd_kafka_assign(consumer, assigned ? partitions : nullptr)) {
    failure = rd_kafka_err2str(e);
  }
  std::vector<std::string> names;
  names.reserve(static_cast<size_t>(partitions->cnt));
  for (int i = 0; i < partitions->cnt; ++i)
    names.push_back(
        fmt::format("{}/{}", partitions->elems[i].topic, partitions->elems[i].partition));
  const char* change = assigned ? "assigned" : "revoked";
  metrics::partitionsMoved(*group, change, partitions->cnt);
  if (!failure.empty()) {
    spdlog::error("group {}: could not apply the {} partitions: {}", *group, change, failure);
  } else {
    spdlog::info("group {} ({} rebalance): {} {} partition(s): {}", *group, protocol, change,
                 partitions->cnt, fmt::join(names, " "));
  }
}

// The consumer's handle, configured for at-least-once: offsets are stored only after the
// handler committed, and committed in the background.
KafkaHandle connectConsumer(const ConsumerConfig& config) {
  KafkaConf conf = newKafkaConf();
  auto set = [&conf](const char* name, const std::string& value) {
    setKafkaConf(conf.get(), name, value);
  };
  set("bootstrap.servers", config.brokers);
  set("group.id", config.group_id);
  set("enable.auto.offset.store", "false");  // we store after the handler committed
  set("enable.auto.commit", "true");
  set("auto.commit.interval.ms", "500");
  set("auto.offset.reset", "earliest");
  set("session.timeout.ms", std::to_string(config.session_timeout_ms));
  set("heartbeat.interval.ms", std::to_string(std::max(100, config.session_timeout_ms / 6)));
  set("topic.metadata.refresh.interval.ms", "5000");
  set("fetch.wait.max.ms", std::to_string(config.fetch_wait_max_ms));
  set("statistics.interval.ms", "5000");
  set("partition.assignment.strategy", config.assignment_strategy);
  rd_kafka_conf_set_stats_cb(conf.get(), onStatistics);
  rd_kafka_conf_set_rebalance_cb(conf.get(), onRebalance);
  rd_kafka_conf_set_offset_commit_cb(conf.get(), onOffsetCommit);
  rd_kafka_conf_set_opaque(conf.get(), const_cast<std::string*>(&config.group_id));
  setKafkaConfs(conf.get(), config.properties);
  KafkaHandle consumer = newKafka(RD_KAFKA_CONSUMER, std::move(conf));
  rd_kafka_poll_set_consumer(consumer.get());
  PartitionList subscription(
      rd_kafka_topic_partition_list_new(static_cast<int>(config.topics.size())));
  for (const auto& topic : config.topics) {
    rd_kafka_topic_partition_list_add(subscription.get(), topic.c_str(), RD_KAFKA_PARTITION_UA);
  }
  rd_kafka_resp_err_t err = rd_kafka_subscribe(consumer.get(), subscription.get());
  if (err) throw FatalConsumerError(std::string("subscribe: ") + rd_kafka_err2str(err));
  return consumer;
}

}  // namespace

Record recordFromMessage(const rd_kafka_message_t* m) {
  Record r;
  r.topic = rd_kafka_topic_name(m->rkt);
  r.partition = m->partition;
  r.offset = m->offset;
  if (m->key) r.key.assign(static_cast<const char*>(m->key), m->key_len);
  if (m->payload) r.payload.assign(static_cast<const char*>(m->payload), m->len);
  rd_kafka_headers_t* hdrs = nullptr;
  if (rd_kafka_message_headers(m, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    const char* name;
    const void* value;
    size_t size;
    for (size_t i = 0;
         rd_kafka_header_get_all(hdrs, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR;
         ++i) {
      r.headers[name] = value ? std::string(static_cast<const char*>(value), size) : std::string();
    }
  }
  return r;
}

const std::atomic<bool>& stopOnSignals() {
  std::signal(SIGTERM, [](int) { g_stop_requested = true; });
  std::signal(SIGINT, [](int) { g_stop_requested = true; });
  return g_stop_requested;
}

RecordRunner::RecordRunner(const ConsumerConfig& config, Producer& dead_letters,
                           RecordHandler handler)
    : max_retry_time_(config.max_retry_time),
      classify_(config.classify),
      dead_letters_(dead_letters),
      handler_(std::move(handler)) {}

void RecordRunner::deadLetter(const Record& record, const std::string& reason) {
  RecordHeaders headers = record.headers;
  headers["dlq.reason"] = reason;
  headers["dlq.source"] =
      record.topic + "/" + std::to_string(record.partition) + "/" + std::to_string(record.offset);
  dead_letters_.produceSync(deadLetterTopic(record.topic), record.key, record.payload, headers);
  metrics::deadLettered(record.topic);
  spdlog::warn("dead-lettered {}/{}/{}: {}", record.topic, record.partition, record.offset, reason);
}

void RecordRunner::retryOrGiveUp(const Record& record, const std::string& reason,
                                 std::chrono::steady_clock::time_point& first_failure) {
  if (first_failure == std::chrono::steady_clock::time_point{})
    first_failure = std::chrono::steady_clock::now();
  if (std::chrono::steady_clock::now() - first_failure > max_retry_time_) {
    throw FatalConsumerError("retryable failure outlasted its budget: " + reason);
  }
  spdlog::warn("retrying {}/{}/{}: {}", record.topic, record.partition, record.offset, reason);
}

std::string requestIdOf(const Record& record) {
  auto request = record.headers.find(kRequestIdHeader);
  return request == record.headers.end() ? "" : request->second;
}

void RecordRunner::report(const Record& record, Handled handled, double seconds,
                          size_t batch_size) {
  static constexpr const char* kOutcomes[] = {"applied", "unchanged", "dead_lettered"};
  const char* outcome = kOutcomes[static_cast<int>(handled)];
  metrics::recordHandled(record.topic, outcome, seconds);
  // One line per record: with the request id, one grep follows a send through every worker.
  if (batch_size == 1) {
    spdlog::info("{} {}/{}/{} key {} in {:.1f} ms", outcome, record.topic, record.partition,
                 record.offset, record.key, seconds * 1000);
  } else {
    spdlog::info("{} {}/{}/{} key {} in {:.1f} ms, in a batch of {}", outcome, record.topic,
                 record.partition, record.offset, record.key, seconds * 1000, batch_size);
  }
}

RecordRunner::Result RecordRunner::run(const Record& record, const std::atomic<bool>& stop) {
  RequestScope scope(requestIdOf(record));
  auto started = std::chrono::steady_clock::now();
  Result result = runWithRetries(record, stop);
  if (result.handled != Handled::Interrupted) {
    report(record, result.handled,
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
  return result;
}

RecordRunner::Result RecordRunner::runWithRetries(const Record& record,
                                                  const std::atomic<bool>& stop) {
  auto first_failure = std::chrono::steady_clock::time_point{};
  auto backoff = std::chrono::milliseconds(100);
  int unknown_failures = 0;
  while (true) {
    try {
      Outcome outcome = handler_(record);
      return {outcome.applied ? Handled::Applied : Handled::Unchanged, outcome.settles};
    } catch (const PermanentError& e) {
      deadLetter(record, db::describeError(e));
      return {Handled::DeadLettered, {}};
    } catch (const RetryableError& e) {
      retryOrGiveUp(record, db::describeError(e), first_failure);
    } catch (const std::exception& e) {
      FailureKind kind = classify_ ? classify_(e) : FailureKind::Unknown;
      if (kind == FailureKind::Retryable) {
        retryOrGiveUp(record, db::describeError(e), first_failure);
      } else if (kind == FailureKind::Permanent) {
        deadLetter(record, db::describeError(e));
        return {Handled::DeadLettered, {}};
      } else if (++unknown_failures >= kMaxUnknownFailures) {
        // Unknown failures get a few tries, then the record is set aside rather than blocking
        // the others.
        deadLetter(record, std::string("failed ") + std::to_string(unknown_failures) +
                               " times: " + db::describeError(e));
        return {Handled::DeadLettered, {}};
      } else {
        spdlog::error("handler failed on {}/{}/{} (try {}): {}", record.topic, record.partition,
                      record.offset, unknown_failures, db::describeError(e));
      }
    }
    if (stop.load()) return {Handled::Interrupted, {}};
    std::this_thread::sleep_for(backoff);
    backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
  }
}

FailureKind classifyDatabaseFailure(const std::exception& error) {
  if (db::isTransient(error)) return FailureKind::Retryable;
  if (db::isDataError(error)) return FailureKind::Permanent;
  return FailureKind::Unknown;
}

ConsumerLoop::ConsumerLoop(ConsumerConfig config, Producer& dead_letters, ConsumerHandlers handlers)
    : config_(std::move(config)),
      runner_(config_, dead_letters, std::move(handlers.one)),
      batch_(std::move(handlers.many)) {}

bool ConsumerLoop::handleOneByOne(const std::vector<Record>& records, SettledOffsets& offsets,
                                  const std::atomic<bool>& stop) {
  for (const Record& record : records) {
    auto result = runner_.run(record, stop);
    if (result.handled == RecordRunner::Handled::Interrupted) return false;
    offsets.handled(record, std::move(result.settles));
  }
  return true;
}

bool ConsumerLoop::handle(const std::vector<Record>& records, SettledOffsets& offsets,
                          const std::atomic<bool>& stop) {
  if (!batch_ || records.size() < 2) return handleOneByOne(records, offsets, stop);
  auto started = std::chrono::steady_clock::now();
  std::vector<Outcome> outcomes;
  try {
    outcomes = batch_(records);
    if (outcomes.size() != records.size())
      throw std::logic_error(fmt::format("the batch handler gave {} outcomes for {} records",
                                         outcomes.size(), records.size()));
  } catch (const std::exception& e) {
    // Nothing of the batch committed: each record gets its own chance, so the one that failed
    // is retried or dead-lettered alone (a transient failure is retried there too).
    metrics::batchHandled(records.front().topic, false, records.size());
    spdlog::warn("a batch of {} records failed, handling them one by one: {}", records.size(),
                 db::describeError(e));
    return handleOneByOne(records, offsets, stop);
  }
  metrics::batchHandled(records.front().topic, true, records.size());
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  for (size_t i = 0; i < records.size(); ++i) {
    RequestScope scope(requestIdOf(records[i]));
    RecordRunner::report(
        records[i],
        outcomes[i].applied ? RecordRunner::Handled::Applied : RecordRunner::Handled::Unchanged,
        seconds, records.size());
    offsets.handled(records[i], std::move(outcomes[i].settles));
  }
  return true;
}

void ConsumerLoop::run(const std::atomic<bool>& stop) {
  KafkaHandle consumer;
  try {
    consumer = connectConsumer(config_);
  } catch (const FatalConsumerError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw FatalConsumerError(e.what());
  }
  spdlog::info("consuming {} as group {}", fmt::join(config_.topics, ","), config_.group_id);

  SettledOffsets offsets;
  const size_t max_records =
      batch_ ? static_cast<size_t>(std::max(1, config_.max_batch_records)) : 1;
  std::vector<Record> records;
  while (!stop.load()) {
    records.clear();
    auto linger_ends = std::chrono::steady_clock::time_point::max();
    int wait_ms = 200;
    while (records.size() < max_records) {
      KafkaMessage message(rd_kafka_consumer_poll(consumer.get(), wait_ms));
      if (!message) break;
      if (message->err) {
        if (message->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
          spdlog::warn("consumer: {}", rd_kafka_message_errstr(message.get()));
        }
        break;
      }
      records.push_back(recordFromMessage(message.get()));
      auto now = std::chrono::steady_clock::now();
      if (records.size() == 1)
        linger_ends = now + std::chrono::milliseconds(config_.batch_linger_ms);
      wait_ms = static_cast<int>(std::max<long long>(
          0, std::chrono::duration_cast<std::chrono::milliseconds>(linger_ends - now).count()));
    }
    if (!records.empty() && !handle(records, offsets, stop)) break;  // the rest replays later
    offsets.store(consumer.get());
  }
  spdlog::info("consumer closing");
  offsets.store(consumer.get());
  rd_kafka_consumer_close(consumer.get());  // commits stored offsets and leaves the group
}

void runConsumeLoops(const ConsumerConfig& config, int count, Producer& dead_letters,
                     const std::function<ConsumerHandlers()>& make_handlers,
                     const std::atomic<bool>& stop) {
  std::vector<std::unique_ptr<ConsumerLoop>> loops;
  for (int i = 0; i < std::max(1, count); ++i) {
    loops.push_back(std::make_unique<ConsumerLoop>(config, dead_letters, make_handlers()));
  }
  std::atomic<bool> stopping{false};
  std::mutex failure_mutex;
  std::exception_ptr failure;
  std::vector<std::thread> threads;
  threads.reserve(loops.size());
  for (auto& loop : loops) {
    threads.emplace_back([&, loop = loop.get()] {
      try {
        loop->run(stopping);
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        stopping = true;
      }
    });
  }
  // `stop` is set from a signal handler, which cannot wake a condition variable: look every 100 ms.
  while (!stopping.load() && !stop.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  stopping = true;
  for (auto& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace smsgw::topics
