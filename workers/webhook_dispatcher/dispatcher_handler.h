#pragma once
// Webhook dispatcher handler: delivers one event (from the `events` topic) to every active
// endpoint of its account subscribed to its type, signed (domain/webhook_signature.h), and
// records each attempt. An endpoint that already accepted the event is skipped, so a replayed
// record does not deliver twice. Account events are also emailed to the owner (owner_email.h).
// Durable retries and disabling arrive with the webhooks issue.

#include <chrono>

#include "domain/mailer.h"
#include "topics/consumer_loop.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

struct DispatcherConfig {
  std::chrono::milliseconds timeout{10000};  // spec: 2xx within 10 seconds
  bool allow_private_targets = false;
};

class DispatcherHandler {
 public:
  DispatcherHandler(WorkerContext& context, DispatcherConfig config, Mailer& mailer)
      : context_(context), config_(config), mailer_(mailer) {}
  void operator()(const topics::Record& record);

 private:
  WorkerContext& context_;
  DispatcherConfig config_;
  Mailer& mailer_;
};

}  // namespace smsgw::workers
