// smsgw-rent-billing: consumes billing.rent. Rent collection, suspension and grace-period
// release are the phone-number issue's; until then records are logged and passed.
#include <spdlog/spdlog.h>

#include "topics/catalogue.h"
#include "workers/runtime/run_worker.h"

int main() {
  using namespace smsgw;
  return workers::runWorker({"rent-billing", {std::string(topics::kBillingRent.name)}},
                            [](workers::WorkerContext&) {
                              return topics::RecordHandler([](const topics::Record& record) {
                                spdlog::info("rent record {}/{} key {} not handled yet",
                                             record.partition, record.offset, record.key);
                              });
                            });
}
