#pragma once
// Sender worker handler: takes a queued message from sms.outbound to the carrier.
// TEST messages are simulated: SENDING at once, `message.sent`, and a simulated "delivered"
// receipt on carrier.receipts, so they cross the same pipeline as live ones. LIVE messages are
// handed to the carrier at most once (live_handoff.h).
// Idempotent: the QUEUED -> SENDING guard makes a replayed record a no-op.

#include "domain/carrier_client.h"
#include "topics/consumer_loop.h"
#include "topics/records.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

class SenderHandler {
 public:
  SenderHandler(WorkerContext& context, CarrierClient& carrier)
      : context_(context), carrier_(carrier) {}
  void operator()(const topics::Record& record);

 private:
  void simulate(const topics::OutboundSms& sms);

  WorkerContext& context_;
  CarrierClient& carrier_;
};

}  // namespace smsgw::workers
