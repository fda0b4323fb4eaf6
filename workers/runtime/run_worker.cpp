#include "workers/runtime/run_worker.h"

#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>

#include "adapters/log.h"
#include "db/error_text.h"
#include "db/process_registry.h"
#include "topics/process_ops.h"
#include "workers/runtime/periodic.h"

namespace smsgw::workers {

topics::ConsumerConfig WorkerSpec::consumerConfig(const std::string& group,
                                                  std::vector<std::string> consumed) const {
  topics::ConsumerConfig config{settings.kafka.brokers, group, std::move(consumed),
                                settings.session_timeout_ms, settings.kafka.properties};
  config.fetch_wait_max_ms = settings.fetch_wait_max_ms;
  config.max_batch_records = settings.batch_max_records;
  config.batch_linger_ms = settings.batch_linger_ms;
  config.classify = topics::classifyDatabaseFailure;
  return config;
}

void addWorkerSettings(ProcessSettings& settings, WorkerSpec& spec) {
  WorkerSettings& w = spec.settings;
  addDatabaseSettings(settings, w.database_url, w.prepared_statements);
  addKafkaSettings(settings, w.kafka);
  settings.add("KAFKA_GROUP_PREFIX", w.group_prefix,
               "consumer group prefix; group = prefix.worker");
  settings.add("KAFKA_SESSION_TIMEOUT_MS", w.session_timeout_ms, "consumer session timeout");
  settings.add("KAFKA_FETCH_WAIT_MAX_MS", w.fetch_wait_max_ms,
               "longest a fetch waits at the broker for records (Kafka answers once one arrives; "
               "the mock holds every fetch this long: 20 with SMSGW_BROKER=mock)");
  if (spec.batches) {
    settings.add("WORKER_BATCH_MAX_RECORDS", w.batch_max_records,
                 "most records of one poll applied together, in one transaction");
    settings.add("WORKER_BATCH_LINGER_MS", w.batch_linger_ms,
                 "how long a batch waits after its first record for more (adds at most this to "
                 "a record's latency)");
  }
  settings.add("WORKER_DB_POOL_SIZE", w.db_pool_size, "PostgreSQL connections",
               "consume loops + periodic tasks + 3, at least 4");
  addOpsEndpointSettings(settings, w.ops);
  CLI::App* replay = settings.cli().add_subcommand(
      "replay", "re-process a range of a topic through this worker's handler, then exit");
  addReplayOptions(*replay, spec.replay);
  spec.replay_command = replay;
}

int runWorker(const WorkerSpec& spec,
              const std::function<topics::ConsumerHandlers(WorkerContext&)>& make_handlers) {
  bool replaying = spec.replay_command && spec.replay_command->parsed();
  initLogging(replaying ? spec.name + "-replay" : spec.name);
  try {
    const auto& stop = topics::stopOnSignals();
    const WorkerSettings& settings = spec.settings;
    // Each consume loop holds one connection at a time; so do each periodic task, the heartbeat
    // and the operations endpoint; the relay has one of its own. One spare.
    int pool_size =
        settings.db_pool_size > 0
            ? settings.db_pool_size
            : std::max(4, spec.consume_loops + static_cast<int>(spec.periodic.size()) + 3);
    db::Database db(settings.database_url, static_cast<size_t>(pool_size),
                    settings.prepared_statements);
    topics::Producer producer(settings.kafka.brokers, "smsgw-" + spec.name,
                              settings.kafka.properties);
    topics::OutboxRelay relay(db, producer);
    SystemClock clock;
    WorkerContext context{db, producer, relay, clock};
    if (replaying)
      return runReplayCommand(spec, context, [&](WorkerContext& c) {
        return make_handlers(c).one;  // a replay handles records one at a time
      });

    relay.start();
    {
      auto ops = topics::startProcessOps(settings.ops, db, producer);
      auto instance = db::thisProcess(spec.name, spec.liveGroup());
      auto heartbeat = std::make_unique<Periodic>("heartbeat", db::kHeartbeatInterval, [&] {
        db::Session sql(db);
        db::beat(*sql, instance, clock.now());
      });
      std::vector<std::unique_ptr<Periodic>> periodic;
      for (const auto& task : spec.periodic) {
        periodic.push_back(
            std::make_unique<Periodic>(task.what, task.interval, [&] { task.work(context); }));
      }
      spdlog::info("worker {} started with {} consume loop(s)", spec.name, spec.consume_loops);
      topics::runConsumeLoops(
          spec.consumerConfig(spec.liveGroup(), spec.topics), spec.consume_loops, producer,
          [&] { return make_handlers(context); }, stop);
      periodic.clear();
      heartbeat.reset();  // no beat may come after the word that this instance stopped
      try {
        db::Session sql(db);
        db::stopped(*sql, instance, clock.now());
      } catch (const std::exception& e) {
        spdlog::warn("could not mark this instance stopped: {}", db::describeError(e));
      }
    }
    relay.stop();
    spdlog::info("worker {} stopped cleanly", spec.name);
    return 0;
  } catch (const std::exception& e) {
    spdlog::critical("worker {} failed: {}", spec.name, db::describeError(e));
    return 3;
  }
}

}  // namespace smsgw::workers
