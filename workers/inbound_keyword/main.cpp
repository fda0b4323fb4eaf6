// smsgw-inbound-keyword: consumes sms.inbound. Its handling (RECEIVED, STOP/START/HELP,
// opt-outs, auto-replies) is the compliance issue's; until then records are logged and passed.
#include <spdlog/spdlog.h>

#include "topics/catalogue.h"
#include "workers/runtime/run_worker.h"

int main() {
  using namespace smsgw;
  return workers::runWorker({"inbound-keyword", {std::string(topics::kSmsInbound.name)}},
                            [](workers::WorkerContext&) {
                              return topics::RecordHandler([](const topics::Record& record) {
                                spdlog::info("inbound record {}/{} key {} not handled yet",
                                             record.partition, record.offset, record.key);
                              });
                            });
}
