// smsgw-inbound-keyword: consumes sms.inbound: stores received texts, acts on STOP, START, HELP
// and YES, and queues the automatic replies.
#include "adapters/settings.h"
#include "topics/catalogue.h"
#include "workers/inbound_keyword/inbound_handler.h"

int main(int argc, char** argv) {
  using namespace smsgw;
  SendPolicy policy;
  workers::WorkerSpec spec("inbound-keyword", {std::string(topics::kSmsInbound.name)});
  ProcessSettings settings("smsgw-inbound-keyword",
                           "Stores received texts, acts on STOP, START, HELP and YES");
  workers::addWorkerSettings(settings, spec);
  addSendPolicySettings(settings, policy);
  settings.parse(argc, argv);
  return workers::runWorker(spec, [&policy](workers::WorkerContext& context) {
    return topics::RecordHandler(workers::InboundHandler(context, policy));
  });
}
