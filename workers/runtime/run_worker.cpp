#include "workers/runtime/run_worker.h"

#include <spdlog/spdlog.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "adapters/env.h"
#include "adapters/log.h"
#include "db/error_text.h"

namespace smsgw::workers {
namespace {

// Runs spec.periodic every interval on its own thread until destroyed.
class PeriodicRunner {
 public:
  PeriodicRunner(const WorkerSpec& spec, WorkerContext& context) {
    if (!spec.periodic) return;
    thread_ = std::thread([this, &spec, &context] {
      std::unique_lock lock(mutex_);
      while (!stopping_) {
        lock.unlock();
        try {
          spec.periodic(context);
        } catch (const std::exception& e) {
          spdlog::error("periodic work of {} failed, retrying next time: {}", spec.name,
                        db::describeError(e));
        }
        lock.lock();
        wake_.wait_for(lock, spec.periodic_interval, [this] { return stopping_; });
      }
    });
  }
  ~PeriodicRunner() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace

void addWorkerSettings(ProcessSettings& settings, WorkerSpec& spec) {
  WorkerSettings& w = spec.settings;
  addDatabaseSettings(settings, w.database_url);
  addKafkaSettings(settings, w.kafka);
  settings.add("KAFKA_GROUP_PREFIX", w.group_prefix,
               "consumer group prefix; group = prefix.worker");
  settings.add("KAFKA_SESSION_TIMEOUT_MS", w.session_timeout_ms, "consumer session timeout");
  settings.add("KAFKA_FETCH_WAIT_MAX_MS", w.fetch_wait_max_ms,
               "longest a fetch waits at the broker (the mock broker always waits this long)");
  settings.add("WORKER_DB_POOL_SIZE", w.db_pool_size, "PostgreSQL connections",
               "consume loops + 2, at least 4");
}

int runWorker(const WorkerSpec& spec,
              const std::function<topics::RecordHandler(WorkerContext&)>& make_handler) {
  initLogging(spec.name);
  try {
    const auto& stop = topics::stopOnSignals();
    const WorkerSettings& settings = spec.settings;
    const std::string& brokers = settings.kafka.brokers;
    // Each consume loop holds one connection at a time; the relay and the periodic work one each.
    int pool_size =
        settings.db_pool_size > 0 ? settings.db_pool_size : std::max(4, spec.consume_loops + 2);
    db::Database db(settings.database_url, static_cast<size_t>(pool_size));
    topics::Producer producer(brokers, "smsgw-" + spec.name);
    topics::OutboxRelay relay(db, producer);
    SystemClock clock;
    WorkerContext context{db, producer, relay, clock};
    topics::ConsumerConfig config{brokers, settings.group_prefix + "." + spec.name, spec.topics,
                                  settings.session_timeout_ms};
    config.fetch_wait_max_ms = settings.fetch_wait_max_ms;
    // The database being away is never the record's fault: wait for it rather than dead-letter.
    config.classify = [](const std::exception& e) {
      return db::isTransient(e) ? topics::FailureKind::Retryable : topics::FailureKind::Unknown;
    };
    relay.start();
    {
      PeriodicRunner periodic(spec, context);
      spdlog::info("worker {} started with {} consume loop(s)", spec.name, spec.consume_loops);
      topics::runConsumeLoops(
          config, spec.consume_loops, producer, [&] { return make_handler(context); }, stop);
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
