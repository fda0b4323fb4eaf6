// smsgw-inbound-keyword: consumes sms.inbound: stores received texts, acts on STOP, START, HELP
// and YES, and queues the automatic replies.
#include "adapters/settings.h"
#include "topics/catalogue.h"
#include "workers/inbound_keyword/inbound_handler.h"

int main() {
  using namespace smsgw;
  SendPolicy policy = sendPolicyFromEnvironment();
  return workers::runWorker(
      {"inbound-keyword", {std::string(topics::kSmsInbound.name)}},
      [&policy](workers::WorkerContext& context) {
        return topics::RecordHandler(workers::InboundHandler(context, policy));
      });
}
