#pragma once
// Inbound-keyword worker handler (sms.inbound): a text a subscriber sent to an account number,
// received by services/compliance/inbound_texts.h (stored, charged, its keyword acted on, the
// automatic reply queued, in one transaction). A replayed record changes nothing.

#include "domain/send_policy.h"
#include "topics/consumer_loop.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

class InboundHandler {
 public:
  explicit InboundHandler(WorkerContext& context, SendPolicy policy = {})
      : context_(context), policy_(policy) {}
  topics::Outcome operator()(const topics::Record& record);

 private:
  WorkerContext& context_;
  SendPolicy policy_;  // the opt-out rate that pauses sending
};

}  // namespace smsgw::workers
