#pragma once
// Receipt worker handler: applies the carrier's receipt (carrier.receipts) to a message
// (services/messaging/receipts.h). Replays change nothing. The receipts of one poll are applied
// in one transaction (applyBatch); when that fails, the consume loop applies them one by one.

#include <vector>

#include "domain/send_policy.h"
#include "topics/consumer_loop.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

class ReceiptHandler {
 public:
  explicit ReceiptHandler(WorkerContext& context, SendPolicy policy = {})
      : context_(context), policy_(policy) {}
  topics::Outcome operator()(const topics::Record& record);
  std::vector<topics::Outcome> applyBatch(const std::vector<topics::Record>& records);

 private:
  WorkerContext& context_;
  SendPolicy policy_;
};

// Both, sharing one handler, for the consume loop.
topics::ConsumerHandlers receiptHandlers(WorkerContext& context, SendPolicy policy);

}  // namespace smsgw::workers
