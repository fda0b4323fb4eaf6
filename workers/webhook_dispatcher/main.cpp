// smsgw-webhook-dispatcher: consumes events and delivers them to customer endpoints.
#include "domain/env.h"
#include "topics/catalogue.h"
#include "workers/webhook_dispatcher/dispatcher_handler.h"

int main() {
  using namespace smsgw;
  workers::DispatcherConfig config;
  config.allow_private_targets = env::getBool("ALLOW_PRIVATE_WEBHOOK_TARGETS", false);
  config.timeout = std::chrono::milliseconds(env::getInt("WEBHOOK_TIMEOUT_MS", 10000));
  LogMailer mailer;
  return workers::runWorker(
      {"webhook-dispatcher", {std::string(topics::kEvents.name)}},
      [&](workers::WorkerContext& context) {
        return topics::RecordHandler(workers::DispatcherHandler(context, config, mailer));
      });
}
