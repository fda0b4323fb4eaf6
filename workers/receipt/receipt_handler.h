#pragma once
// Receipt worker handler: applies the carrier's final word (carrier.receipts) to a message.
// delivered -> DELIVERED; delivery_failed/expired -> UNDELIVERED (charge kept);
// sending_failed -> FAILED (LIVE charge refunded). Guarded by status, so replays change nothing.

#include "topics/consumer_loop.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

class ReceiptHandler {
 public:
  explicit ReceiptHandler(WorkerContext& context) : context_(context) {}
  void operator()(const topics::Record& record);

 private:
  WorkerContext& context_;
};

}  // namespace smsgw::workers
