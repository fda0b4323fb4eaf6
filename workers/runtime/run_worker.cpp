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

int runWorker(const WorkerSpec& spec,
              const std::function<topics::RecordHandler(WorkerContext&)>& make_handler) {
  initLogging(spec.name);
  try {
    const auto& stop = topics::stopOnSignals();
    std::string brokers = env::kafkaBrokers();
    // Each consume loop holds one connection at a time; the relay and the periodic work one each.
    int pool_size = env::getInt("WORKER_DB_POOL_SIZE", std::max(4, spec.consume_loops + 2));
    db::Database db(env::databaseUrl(), static_cast<size_t>(pool_size));
    topics::Producer producer(brokers, "smsgw-" + spec.name);
    topics::OutboxRelay relay(db, producer);
    SystemClock clock;
    WorkerContext context{db, producer, relay, clock};
    topics::ConsumerConfig config{brokers,
                                  env::get("KAFKA_GROUP_PREFIX", "smsgw") + "." + spec.name,
                                  spec.topics, env::getInt("KAFKA_SESSION_TIMEOUT_MS", 6000)};
    config.fetch_wait_max_ms = env::getInt("KAFKA_FETCH_WAIT_MAX_MS", config.fetch_wait_max_ms);
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
