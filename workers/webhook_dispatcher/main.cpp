// smsgw-webhook-dispatcher: consumes events and delivers them to customer endpoints, with
// durable retries claimed from PostgreSQL every WEBHOOK_RETRY_POLL_MS.
#include <memory>

#include "adapters/env.h"
#include "topics/catalogue.h"
#include "workers/runtime/run_worker.h"
#include "workers/webhook_dispatcher/dispatcher.h"

int main() {
  using namespace smsgw;
  workers::DispatcherConfig config;
  config.delivery.allow_loopback = env::getBool("ALLOW_PRIVATE_WEBHOOK_TARGETS", false);
  config.delivery.timeout = std::chrono::milliseconds(env::getInt("WEBHOOK_TIMEOUT_MS", 10000));
  config.pool.threads = env::getInt("WEBHOOK_DELIVERY_THREADS", config.pool.threads);
  config.pool.per_endpoint = env::getInt("WEBHOOK_ENDPOINT_CONCURRENCY", config.pool.per_endpoint);
  config.pool.endpoint_backlog = static_cast<size_t>(
      env::getInt("WEBHOOK_ENDPOINT_BACKLOG", static_cast<int>(config.pool.endpoint_backlog)));
  config.lease = std::chrono::seconds(
      env::getInt("WEBHOOK_RETRY_LEASE_SECONDS", static_cast<int>(config.lease.count())));
  LogMailer mailer;

  // The dispatcher lives inside the consume loop's handler, so it (and its delivery pool) is
  // gone before the database it uses; the periodic retry pass, stopped before the loop, reaches
  // it through this weak pointer.
  std::weak_ptr<workers::Dispatcher> running;
  workers::WorkerSpec spec{"webhook-dispatcher", {std::string(topics::kEvents.name)}};
  spec.periodic = [&running](workers::WorkerContext&) {
    if (auto dispatcher = running.lock()) dispatcher->runDueRetries();
  };
  spec.periodic_interval = std::chrono::milliseconds(env::getInt("WEBHOOK_RETRY_POLL_MS", 250));
  return workers::runWorker(spec, [&](workers::WorkerContext& context) {
    auto dispatcher =
        std::make_shared<workers::Dispatcher>(context.db, context.clock, mailer, config);
    running = dispatcher;
    return topics::RecordHandler(
        [dispatcher](const topics::Record& record) { dispatcher->onEvent(record); });
  });
}
