#pragma once
// The generic consume loop every worker runs (pipeline rules 2 and 3):
// - the handler runs its own database transaction and returns only after it committed, or
//   returns an outcome that settles once its effects are durable (Outcome::settles);
// - the offset is stored only after that, so a crash replays the record;
// - PermanentError (and a record failing kMaxUnknownFailures times) goes to `<topic>.dlq`
//   with the reason, so it never blocks its partition;
// - RetryableError and transient database errors are retried with backoff; after
//   `max_retry_time` the process exits (fatal) and the supervisor restarts it, replaying from
//   the last stored offset.
// Runs on the calling thread until `stop` becomes true, then closes cleanly (final commit).
// A worker may also give a batch handler: the records of one poll are then applied together, in
// one transaction, and their offsets stored only after it committed (ConsumerHandlers).

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <string>
#include <vector>

#include "topics/producer.h"

struct rd_kafka_message_s;

namespace smsgw::topics {

class SettledOffsets;

struct Record {
  std::string topic;
  int partition = 0;
  long long offset = 0;
  std::string key;
  std::string payload;
  RecordHeaders headers;
};

// What a handler did with its record: the consume loop stores offsets by it, and a replay
// reports it (ops/admin replay: applied, already applied).
struct Outcome {
  // False when the record changed nothing: its effects were already there (a replay, a
  // duplicate) or it is not this database's to act on.
  bool applied = true;
  // Set when the effects become durable only later, on another thread (the webhook
  // dispatcher's attempts): the record's offset is stored once this is ready, so a crash in
  // between replays the record (pipeline rule 3).
  std::shared_future<void> settles;

  static Outcome done() { return {}; }
  static Outcome unchanged() { return {false, {}}; }
  static Outcome settlesLater(std::shared_future<void> settled) {
    return {true, std::move(settled)};
  }
};

using RecordHandler = std::function<Outcome(const Record&)>;

// Applies the records of one poll together, in one database transaction, and returns one
// Outcome per record, in their order; it commits all of them or none (it throws). When it
// throws, the loop runs the same records one at a time through the RecordHandler, with its
// retries and dead-lettering: a record that fails never fails its neighbours.
using BatchHandler = std::function<std::vector<Outcome>(const std::vector<Record>&)>;

struct ConsumerHandlers {
  // Implicit, so a worker that handles records one at a time just gives its RecordHandler.
  ConsumerHandlers(RecordHandler record) : one(std::move(record)) {}  // NOLINT
  ConsumerHandlers(RecordHandler record, BatchHandler batch)
      : one(std::move(record)), many(std::move(batch)) {}

  RecordHandler one;
  BatchHandler many;  // unset: every record alone
};

// The request id a record carries (producer.h's header), for the handler's RequestScope.
std::string requestIdOf(const Record& record);

// Copies what a handler needs out of a librdkafka message.
Record recordFromMessage(const rd_kafka_message_s* message);

// What a failure a handler threw means for its record, where its type alone does not say.
enum class FailureKind {
  Retryable,  // not the record's fault (the database is away): try it again, never dead-letter
  Permanent,  // the record's own fault, the same on every try: set aside at once
  Unknown,    // a few tries, then the record is set aside on the dead-letter topic
};

// How every worker classifies what its handler threw: the database being away is never the
// record's fault (Retryable, wait for it); a value the database refuses (db::isDataError) is
// refused again on every try (Permanent, set aside at once); anything else is Unknown.
FailureKind classifyDatabaseFailure(const std::exception& error);

struct ConsumerConfig {
  std::string brokers;
  std::string group_id;
  std::vector<std::string> topics;
  int session_timeout_ms = 6000;
  // Further librdkafka settings (KAFKA_* passthrough: security, SASL, TLS), set last.
  KafkaProperties properties;
  // How long a fetch may wait at the broker for records. Kafka answers a waiting fetch as soon
  // as records arrive, so librdkafka's 500 ms costs no latency there, and shorter waits only
  // add idle fetch requests (CPU in the broker and here: ops/bench/RESULTS.md). librdkafka's
  // mock cluster holds every fetch the full time; on it ops/lib/kafka.sh sets 20 ms.
  int fetch_wait_max_ms = 500;
  // How the group shares partitions among its members. Cooperative-sticky moves only the
  // partitions that change owner when a member joins or leaves, where range and roundrobin stop
  // every member and hand everything out again (docs/operations.md, "Scaled worker pools"). Every
  // member of a group must speak the same protocol.
  std::string assignment_strategy = "cooperative-sticky";
  // A batch (ConsumerHandlers::many) takes what the client already fetched, up to
  // `max_batch_records`, waiting at most `batch_linger_ms` after its first record for more:
  // under load, batches fill from the fetch at once; at a trickle they stay small and add at
  // most the linger to a record's latency.
  int max_batch_records = 200;
  int batch_linger_ms = 5;
  std::chrono::milliseconds max_retry_time{std::chrono::minutes(2)};
  // Classifies failures other than RetryableError and PermanentError (the worker runtime
  // passes classifyDatabaseFailure); unset, they are all Unknown.
  std::function<FailureKind(const std::exception&)> classify = nullptr;
};

class FatalConsumerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs a handler on one record the way every consumer must: retryable failures are tried
// again with backoff, permanent ones (and a record failing kMaxUnknownFailures times) go to the
// dead-letter topic. Shared by the consume loop and the replay (topics/replay.h). One thread.
class RecordRunner {
 public:
  static constexpr int kMaxUnknownFailures = 5;

  enum class Handled { Applied, Unchanged, DeadLettered, Interrupted };
  struct Result {
    Handled handled = Handled::Applied;
    std::shared_future<void> settles;  // as Outcome::settles
  };

  RecordRunner(const ConsumerConfig& config, Producer& dead_letters, RecordHandler handler);
  // Throws FatalConsumerError when a retryable failure outlasts max_retry_time; Interrupted
  // when `stop` became true between tries (the record was not handled).
  Result run(const Record& record, const std::atomic<bool>& stop);
  // The metric and the log line of one record handled in `seconds` (alone or in a batch).
  static void report(const Record& record, Handled handled, double seconds, size_t batch_size = 1);

 private:
  Result runWithRetries(const Record& record, const std::atomic<bool>& stop);
  void deadLetter(const Record& record, const std::string& reason);
  void retryOrGiveUp(const Record& record, const std::string& reason,
                     std::chrono::steady_clock::time_point& first_failure);

  std::chrono::milliseconds max_retry_time_;
  std::function<FailureKind(const std::exception&)> classify_;
  Producer& dead_letters_;
  RecordHandler handler_;
};

class ConsumerLoop {
 public:
  ConsumerLoop(ConsumerConfig config, Producer& dead_letters, ConsumerHandlers handlers);
  // Throws FatalConsumerError when a retryable failure outlasts max_retry_time.
  void run(const std::atomic<bool>& stop);

 private:
  // Handles the records of one poll; returns false when `stop` interrupted them (the records
  // not handled are not stored, so they are replayed later).
  bool handle(const std::vector<Record>& records, SettledOffsets& offsets,
              const std::atomic<bool>& stop);
  bool handleOneByOne(const std::vector<Record>& records, SettledOffsets& offsets,
                      const std::atomic<bool>& stop);

  ConsumerConfig config_;
  RecordRunner runner_;
  BatchHandler batch_;
};

// Runs `count` consume loops side by side, one thread each, every one its own member of the
// consumer group with its own handler from `make_handler`. Kafka gives each loop a share of the
// partitions: records of one key (one partition) are still handled one at a time and in order,
// while a slow record holds up only its own partition. Returns when `stop` becomes true; when a
// loop fails, stops the others and rethrows, so the process exits and its supervisor restarts
// it (each loop replays from its last stored offsets).
void runConsumeLoops(const ConsumerConfig& config, int count, Producer& dead_letters,
                     const std::function<ConsumerHandlers()>& make_handlers,
                     const std::atomic<bool>& stop);

// Installs SIGTERM/SIGINT handlers that set the returned flag (for worker main()s).
const std::atomic<bool>& stopOnSignals();

}  // namespace smsgw::topics
