// smsgw-receipt: consumes carrier.receipts and settles messages.
#include "topics/catalogue.h"
#include "workers/receipt/receipt_handler.h"

int main() {
  using namespace smsgw;
  return workers::runWorker({"receipt", {std::string(topics::kCarrierReceipts.name)}},
                            [](workers::WorkerContext& context) {
                              return topics::RecordHandler(workers::ReceiptHandler(context));
                            });
}
