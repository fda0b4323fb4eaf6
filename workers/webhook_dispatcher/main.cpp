// smsgw-webhook-dispatcher: consumes events and delivers them to customer endpoints, with
// durable retries claimed from PostgreSQL every WEBHOOK_RETRY_POLL_MS.
#include <memory>

#include "adapters/mailer.h"
#include "adapters/settings.h"
#include "services/accounts/owner_mail.h"
#include "topics/catalogue.h"
#include "workers/runtime/run_worker.h"
#include "workers/webhook_dispatcher/dispatcher.h"

int main(int argc, char** argv) {
  using namespace smsgw;
  workers::DispatcherConfig config;
  config.delivery.keep_alive = true;
  workers::WorkerSpec spec{"webhook-dispatcher", {std::string(topics::kEvents.name)}};
  // Each event costs a couple of reads before its attempts are queued; one loop per partition
  // runs those reads side by side (an account's events stay in order: one key, one partition).
  spec.consume_loops = topics::kEvents.partitions;
  spec.batches = true;  // a poll's events read with one query (Dispatcher::onEvents)
  std::chrono::milliseconds retry_poll{250};
  ProcessSettings settings("smsgw-webhook-dispatcher",
                           "Delivers signed events to customers' endpoints, with durable retries");
  workers::addWorkerSettings(settings, spec);
  settings.add("ALLOW_PRIVATE_WEBHOOK_TARGETS", config.delivery.allow_loopback,
               "local stacks: accept http and loopback webhook URLs (never private networks)");
  settings.add("WEBHOOK_TIMEOUT_MS", config.delivery.timeout, "delivery timeout");
  settings.add("WEBHOOK_DELIVERY_THREADS", config.pool.threads, "attempts in flight at once");
  settings.add("WEBHOOK_ENDPOINT_CONCURRENCY", config.pool.per_endpoint,
               "attempts in flight per endpoint");
  settings.add("WEBHOOK_ENDPOINT_BACKLOG", config.pool.endpoint_backlog,
               "attempts waiting per endpoint before new events are dead letters queue_full");
  settings.add("DISPATCHER_CONSUME_LOOPS", spec.consume_loops,
               "events read at once, one per share of the events topic's partitions");
  settings.add("WEBHOOK_KEEP_ALIVE", config.delivery.keep_alive,
               "keep each delivery thread's connections to endpoints open between deliveries");
  settings.add("WEBHOOK_BATCH_SETTLEMENT", config.batch_successes,
               "settle successful first attempts together (off: one transaction each)");
  settings.add("WEBHOOK_RETRY_LEASE_SECONDS", config.lease,
               "how long a claimed retry stays one dispatcher's before another may take it");
  settings.add("WEBHOOK_RETRY_POLL_MS", retry_poll, "how often due retries are claimed");
  std::string mail_drop_dir;
  addMailerSettings(settings, mail_drop_dir);
  settings.parse(argc, argv);
  LogMailer mailer(mail_drop_dir);

  // The dispatcher lives inside the consume loops' handlers, so it (and its delivery pool) is
  // gone before the database it uses; the periodic retry pass, stopped before the loops, reaches
  // it through this weak pointer, and every loop's handler shares the one the first made.
  std::weak_ptr<workers::Dispatcher> running;
  spec.periodic.push_back({"the retry pass", retry_poll, [&running](workers::WorkerContext&) {
                             if (auto dispatcher = running.lock()) dispatcher->runDueRetries();
                           }});
  // Sign-in emails the API queued and did not send (it died between its commit and the
  // mailer): a minute on, they are this process's to send (services/accounts/owner_mail.h).
  spec.periodic.push_back(
      {"owner emails left unsent", std::chrono::seconds(15), [&mailer](workers::WorkerContext& c) {
         TimePoint now = c.clock.now();
         accounts::sendLeftoverEmails(c.db, mailer, now - std::chrono::minutes(1), now);
       }});
  return workers::runWorker(spec, [&](workers::WorkerContext& context) {
    auto dispatcher = running.lock();
    if (!dispatcher) {
      dispatcher = std::make_shared<workers::Dispatcher>(context.db, context.clock, mailer, config);
      running = dispatcher;
    }
    return topics::ConsumerHandlers(
        [dispatcher](const topics::Record& record) { return dispatcher->onEvent(record); },
        [dispatcher](const std::vector<topics::Record>& records) {
          return dispatcher->onEvents(records);
        });
  });
}
