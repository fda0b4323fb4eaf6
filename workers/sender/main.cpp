// smsgw-sender: consumes sms.outbound and hands messages to the carrier.
#include "domain/env.h"
#include "topics/catalogue.h"
#include "workers/sender/sender_handler.h"

int main() {
  using namespace smsgw;
  HttpCarrierClient carrier({env::get("CARRIER_BASE_URL", "http://127.0.0.1:8090"),
                             env::get("CARRIER_API_KEY", "sim-key"),
                             std::chrono::milliseconds(env::getInt("CARRIER_TIMEOUT_MS", 5000))});
  return workers::runWorker(
      {"sender", {std::string(topics::kSmsOutbound.name)}}, [&](workers::WorkerContext& context) {
        return topics::RecordHandler(workers::SenderHandler(context, carrier));
      });
}
