#include "workers/runtime/run_worker.h"

#include <spdlog/spdlog.h>

#include "domain/env.h"
#include "domain/log.h"

namespace smsgw::workers {

int runWorker(const WorkerSpec& spec,
              const std::function<topics::RecordHandler(WorkerContext&)>& make_handler) {
  initLogging(spec.name);
  try {
    const auto& stop = topics::stopOnSignals();
    std::string brokers = env::kafkaBrokers();
    db::Database db(env::databaseUrl(), static_cast<size_t>(env::getInt("WORKER_DB_POOL_SIZE", 4)));
    topics::Producer producer(brokers, "smsgw-" + spec.name);
    topics::OutboxRelay relay(db, producer);
    SystemClock clock;
    WorkerContext context{db, producer, relay, clock};
    topics::ConsumerConfig config{brokers,
                                  env::get("KAFKA_GROUP_PREFIX", "smsgw") + "." + spec.name,
                                  spec.topics, env::getInt("KAFKA_SESSION_TIMEOUT_MS", 6000)};
    topics::ConsumerLoop loop(config, producer, make_handler(context));
    relay.start();
    spdlog::info("worker {} started", spec.name);
    loop.run(stop);
    relay.stop();
    spdlog::info("worker {} stopped cleanly", spec.name);
    return 0;
  } catch (const std::exception& e) {
    spdlog::critical("worker {} failed: {}", spec.name, e.what());
    return 3;
  }
}

}  // namespace smsgw::workers
