#pragma once
// The generic consume loop every worker runs (DESIGN.md rules 2 and 3):
// - the handler runs its own database transaction and returns only after it committed;
// - the offset is stored only after the handler returned, so a crash replays the record;
// - PermanentError (and a record failing kMaxUnknownFailures times) goes to `<topic>.dlq`
//   with the reason, so it never blocks its partition;
// - RetryableError and transient database errors are retried with backoff; after `max_retry_time`
// the process exits (fatal)
//   and the supervisor restarts it, replaying from the last stored offset.
// Runs on the calling thread until `stop` becomes true, then closes cleanly (final commit).

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "topics/producer.h"

struct rd_kafka_message_s;

namespace smsgw::topics {

struct Record {
  std::string topic;
  int partition = 0;
  long long offset = 0;
  std::string key;
  std::string payload;
  RecordHeaders headers;
};

using RecordHandler = std::function<void(const Record&)>;

// Copies what a handler needs out of a librdkafka message.
Record recordFromMessage(const rd_kafka_message_s* message);

// What a failure a handler threw means for its record, where its type alone does not say.
enum class FailureKind {
  Retryable,  // not the record's fault (the database is away): try it again, never dead-letter
  Unknown,    // a few tries, then the record is set aside on the dead-letter topic
};

struct ConsumerConfig {
  std::string brokers;
  std::string group_id;
  std::vector<std::string> topics;
  int session_timeout_ms = 6000;
  // How long a fetch may wait at the broker for records. Kafka answers a waiting fetch as soon
  // as records arrive, but librdkafka's mock cluster (local runs, CI) holds it the full time:
  // at librdkafka's 500 ms default that was the bulk of the time from an accepted send to the
  // carrier (ops/bench/RESULTS.md). Short waits cost only idle fetch requests.
  int fetch_wait_max_ms = 20;
  std::chrono::milliseconds max_retry_time{std::chrono::minutes(2)};
  // Classifies failures other than RetryableError and PermanentError (the worker runtime
  // passes db::isTransient's answer); unset, they are all Unknown.
  std::function<FailureKind(const std::exception&)> classify = nullptr;
};

class FatalConsumerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ConsumerLoop {
 public:
  static constexpr int kMaxUnknownFailures = 5;

  ConsumerLoop(ConsumerConfig config, Producer& dead_letters, RecordHandler handler);
  // Throws FatalConsumerError when a retryable failure outlasts max_retry_time.
  void run(const std::atomic<bool>& stop);

 private:
  enum class Handled { Done, DeadLettered, Interrupted };
  Handled handleWithRetries(const Record& record, const std::atomic<bool>& stop);
  void deadLetter(const Record& record, const std::string& reason);
  void retryOrGiveUp(const Record& record, const std::string& reason,
                     std::chrono::steady_clock::time_point& first_failure);

  ConsumerConfig config_;
  Producer& dead_letters_;
  RecordHandler handler_;
};

// Runs `count` consume loops side by side, one thread each, every one its own member of the
// consumer group with its own handler from `make_handler`. Kafka gives each loop a share of the
// partitions: records of one key (one partition) are still handled one at a time and in order,
// while a slow record holds up only its own partition. Returns when `stop` becomes true; when a
// loop fails, stops the others and rethrows, so the process exits and its supervisor restarts
// it (each loop replays from its last stored offsets).
void runConsumeLoops(const ConsumerConfig& config, int count, Producer& dead_letters,
                     const std::function<RecordHandler()>& make_handler,
                     const std::atomic<bool>& stop);

// Installs SIGTERM/SIGINT handlers that set the returned flag (for worker main()s).
const std::atomic<bool>& stopOnSignals();

}  // namespace smsgw::topics
