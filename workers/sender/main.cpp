// smsgw-sender: consumes sms.outbound and hands messages to the carrier; a periodic sweep
// sends paced messages when their slot comes and fails hand-offs a crash left behind.
#include "adapters/http_carrier_client.h"
#include "adapters/settings.h"
#include "topics/catalogue.h"
#include "workers/sender/queued_sweep.h"
#include "workers/sender/sender_handler.h"

int main(int argc, char** argv) {
  using namespace smsgw;
  workers::WorkerSpec spec("sender", {std::string(topics::kSmsOutbound.name)});
  CarrierClientConfig carrier_config;
  SendPolicy policy;
  std::string code_secret;
  spec.periodic_interval = std::chrono::milliseconds(250);
  // A hand-off waits on the carrier's answer; one loop per partition lets the sending numbers of
  // other partitions go on meanwhile, each number's messages still in order.
  spec.consume_loops = topics::kSmsOutbound.partitions;
  ProcessSettings settings("smsgw-sender", "Hands messages to the carrier, at most once each");
  workers::addWorkerSettings(settings, spec);
  addCarrierSettings(settings, carrier_config);
  addSendPolicySettings(settings, policy);
  addVerificationCodeSecret(settings, code_secret);
  settings.add("SENDER_SWEEP_INTERVAL_MS", spec.periodic_interval,
               "how often paced, stale and lost messages are swept");
  settings.add("SENDER_CONSUME_LOOPS", spec.consume_loops,
               "hand-offs in flight at once, one per share of sms.outbound's partitions");
  settings.parse(argc, argv);

  HttpCarrierClient carrier(carrier_config);
  spec.periodic = [&](workers::WorkerContext& context) {
    workers::sweepQueued(context, carrier, policy, code_secret);
  };
  return workers::runWorker(spec, [&](workers::WorkerContext& context) {
    return topics::RecordHandler(workers::SenderHandler(context, carrier, policy, code_secret));
  });
}
