#pragma once
// The one wiring every worker main() shares: config from the environment, the database pool,
// the producer, the outbox relay, the consume loops and the process's heartbeat. Also runs the
// `replay` subcommand every worker has (replay_command.h). Returns the process exit code.

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "adapters/ops_endpoint.h"
#include "adapters/settings.h"
#include "db/database.h"
#include "domain/clock.h"
#include "topics/consumer_loop.h"
#include "topics/outbox_relay.h"
#include "topics/producer.h"
#include "workers/runtime/replay_command.h"

namespace smsgw::workers {

struct WorkerContext {
  db::Database& db;
  topics::Producer& producer;
  topics::OutboxRelay& relay;
  const Clock& clock;
};

// What every worker reads from its environment (addWorkerSettings).
struct WorkerSettings {
  std::string database_url;
  bool prepared_statements = true;
  KafkaSettings kafka;
  std::string group_prefix = "smsgw";  // consumer group = prefix.worker
  int session_timeout_ms = 6000;
  int fetch_wait_max_ms = 500;
  int batch_max_records = 200;  // topics::ConsumerConfig::max_batch_records
  int batch_linger_ms = 5;      // topics::ConsumerConfig::batch_linger_ms
  int db_pool_size = 0;         // 0: consume loops + periodic tasks + 3, at least 4
  OpsEndpointConfig ops;        // /metrics, /health, /ready
};

struct WorkerSpec {
  WorkerSpec(std::string worker_name, std::vector<std::string> consumed)
      : name(std::move(worker_name)), topics(std::move(consumed)) {}

  std::string name;                 // process and consumer-group name, e.g. "sender"
  std::vector<std::string> topics;  // topics consumed
  // Time-based work beside the consume loop (pipeline rule 5), each task on its own thread
  // every `interval` until shutdown; a failing run is logged and retried next time.
  struct PeriodicTask {
    std::string what;
    std::chrono::milliseconds interval;
    std::function<void(WorkerContext&)> work;
  };
  std::vector<PeriodicTask> periodic;
  // How many consume loops run side by side (topics::runConsumeLoops): a slow record then holds
  // up only its own partition. More loops than partitions would sit idle.
  int consume_loops = 1;
  // Whether its handlers apply a poll's records together (topics::ConsumerHandlers::many): the
  // batch settings are then registered.
  bool batches = false;
  WorkerSettings settings;
  ReplayCommand replay;  // filled when the process was started as `<worker> replay ...`
  const CLI::App* replay_command = nullptr;

  std::string liveGroup() const { return settings.group_prefix + "." + name; }
  // The consumer settings of `group` on `topics` (the live group's, unless told otherwise).
  topics::ConsumerConfig consumerConfig(const std::string& group,
                                        std::vector<std::string> consumed) const;
};

// Registers the database, Kafka and pool settings every worker has, and its replay subcommand.
void addWorkerSettings(ProcessSettings& settings, WorkerSpec& spec);

// `make_handlers` is called once per consume loop; each handler is used by one thread only. A
// worker that gives only a RecordHandler handles records one at a time.
int runWorker(const WorkerSpec& spec,
              const std::function<topics::ConsumerHandlers(WorkerContext&)>& make_handlers);

}  // namespace smsgw::workers
