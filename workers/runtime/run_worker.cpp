#include "workers/runtime/run_worker.h"

#include <spdlog/spdlog.h>

#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "domain/env.h"
#include "domain/log.h"

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
          spdlog::error("periodic work of {} failed, retrying next time: {}", spec.name, e.what());
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

// Runs the spec's consume loops, one thread each, until a signal or until one loop fails. A
// failure stops the others and is rethrown, so the process exits and its supervisor restarts
// it: the loops replay from their last stored offsets.
void runConsumeLoops(std::vector<std::unique_ptr<topics::ConsumerLoop>>& loops,
                     const std::atomic<bool>& signalled) {
  std::atomic<bool> stopping{false};
  std::mutex failure_mutex;
  std::exception_ptr failure;
  std::vector<std::thread> threads;
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
  while (!stopping.load() && !signalled.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  stopping = true;
  for (auto& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

int runWorker(const WorkerSpec& spec,
              const std::function<topics::RecordHandler(WorkerContext&)>& make_handler) {
  initLogging(spec.name);
  try {
    const auto& stop = topics::stopOnSignals();
    std::string brokers = env::kafkaBrokers();
    // Each consume loop holds one connection at a time; the relay and the periodic work one each.
    int pool_size = env::getInt("WORKER_DB_POOL_SIZE", std::max(4, spec.consumers + 2));
    db::Database db(env::databaseUrl(), static_cast<size_t>(pool_size));
    topics::Producer producer(brokers, "smsgw-" + spec.name);
    topics::OutboxRelay relay(db, producer);
    SystemClock clock;
    WorkerContext context{db, producer, relay, clock};
    topics::ConsumerConfig config{brokers,
                                  env::get("KAFKA_GROUP_PREFIX", "smsgw") + "." + spec.name,
                                  spec.topics, env::getInt("KAFKA_SESSION_TIMEOUT_MS", 6000)};
    config.fetch_wait_max_ms = env::getInt("KAFKA_FETCH_WAIT_MAX_MS", config.fetch_wait_max_ms);
    std::vector<std::unique_ptr<topics::ConsumerLoop>> loops;
    for (int i = 0; i < std::max(1, spec.consumers); ++i) {
      loops.push_back(
          std::make_unique<topics::ConsumerLoop>(config, producer, make_handler(context)));
    }
    relay.start();
    {
      PeriodicRunner periodic(spec, context);
      spdlog::info("worker {} started with {} consume loop(s)", spec.name, loops.size());
      runConsumeLoops(loops, stop);
    }
    relay.stop();
    spdlog::info("worker {} stopped cleanly", spec.name);
    return 0;
  } catch (const std::exception& e) {
    spdlog::critical("worker {} failed: {}", spec.name, e.what());
    return 3;
  }
}

}  // namespace smsgw::workers
