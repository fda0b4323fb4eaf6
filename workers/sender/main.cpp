// smsgw-sender: consumes sms.outbound and hands messages to the carrier; a periodic sweep
// sends paced messages when their slot comes and fails hand-offs a crash left behind.
#include "adapters/env.h"
#include "adapters/http_carrier_client.h"
#include "adapters/settings.h"
#include "topics/catalogue.h"
#include "workers/sender/queued_sweep.h"
#include "workers/sender/sender_handler.h"

int main() {
  using namespace smsgw;
  auto carrier_config =
      workers::configOrExit([] { return CarrierClientConfig::fromEnvironment(); });
  HttpCarrierClient carrier(carrier_config);
  SendPolicy policy = sendPolicyFromEnvironment();
  workers::WorkerSpec spec("sender", {std::string(topics::kSmsOutbound.name)});
  spec.periodic = [&](workers::WorkerContext& context) {
    workers::sweepQueued(context, carrier, policy);
  };
  spec.periodic_interval = std::chrono::milliseconds(env::getInt("SENDER_SWEEP_INTERVAL_MS", 250));
  // A hand-off waits on the carrier's answer; one loop per partition lets the sending numbers of
  // other partitions go on meanwhile, each number's messages still in order.
  spec.consume_loops = env::getInt("SENDER_CONSUME_LOOPS", topics::kSmsOutbound.partitions);
  return workers::runWorker(spec, [&](workers::WorkerContext& context) {
    return topics::RecordHandler(workers::SenderHandler(context, carrier, policy));
  });
}
