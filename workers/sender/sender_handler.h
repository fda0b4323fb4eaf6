#pragma once
// Sender worker handler: takes a queued message from sms.outbound to the carrier. LIVE
// messages are handed off at most once (live_handoff.h) when their pacing slot has come, else
// left to the queued sweep; TEST messages are simulated (test_simulation.h).
// Idempotent: the QUEUED guards make a replayed record a no-op.

#include "domain/carrier_client.h"
#include "domain/send_policy.h"
#include "topics/consumer_loop.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

class SenderHandler {
 public:
  SenderHandler(WorkerContext& context, CarrierClient& carrier, SendPolicy policy = {})
      : context_(context), carrier_(carrier), policy_(policy) {}
  void operator()(const topics::Record& record);

 private:
  WorkerContext& context_;
  CarrierClient& carrier_;
  SendPolicy policy_;
};

}  // namespace smsgw::workers
