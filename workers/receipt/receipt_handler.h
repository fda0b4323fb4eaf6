#pragma once
// Receipt worker handler: applies the carrier's receipt (carrier.receipts) to a message
// (services/messaging/receipts.h). Replays change nothing.

#include "domain/send_policy.h"
#include "topics/consumer_loop.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

class ReceiptHandler {
 public:
  explicit ReceiptHandler(WorkerContext& context, SendPolicy policy = {})
      : context_(context), policy_(policy) {}
  topics::Outcome operator()(const topics::Record& record);

 private:
  WorkerContext& context_;
  SendPolicy policy_;
};

}  // namespace smsgw::workers
