// smsgw-sender: consumes sms.outbound and hands messages to the carrier; a periodic sweep sends
// paced messages when their slot comes, and the reconciler settles and pushes on stuck work.
#include <memory>

#include "adapters/http_carrier_client.h"
#include "adapters/settings.h"
#include "topics/catalogue.h"
#include "workers/sender/queued_sweep.h"
#include "workers/sender/reconciler.h"
#include "workers/sender/sender_handler.h"

int main(int argc, char** argv) {
  using namespace smsgw;
  workers::WorkerSpec spec("sender", {std::string(topics::kSmsOutbound.name)});
  CarrierClientConfig carrier_config;
  SendPolicy policy;
  std::string code_secret;
  std::chrono::milliseconds sweep_interval{250};
  workers::ReconcilerSettings reconciler;
  // A hand-off waits on the carrier's answer; one loop per partition lets the sending numbers of
  // other partitions go on meanwhile, each number's messages still in order.
  spec.consume_loops = topics::kSmsOutbound.partitions;
  // A batch's answers are recorded after its last carrier call: kept short, so a receipt rarely
  // beats its send's answer to the database (it would be held, then applied by the sender).
  spec.settings.batch_max_records = 20;
  spec.batches = true;
  ProcessSettings settings("smsgw-sender", "Hands messages to the carrier, at most once each");
  workers::addWorkerSettings(settings, spec);
  addCarrierSettings(settings, carrier_config);
  addSendPolicySettings(settings, policy);
  addVerificationCodeSecret(settings, code_secret);
  settings.add("SENDER_SWEEP_INTERVAL_MS", sweep_interval,
               "how often paced messages whose slot came are swept");
  settings.add("SENDER_CONSUME_LOOPS", spec.consume_loops,
               "hand-offs in flight at once, one per share of sms.outbound's partitions");
  workers::addReconcilerSettings(settings, reconciler);
  settings.parse(argc, argv);

  HttpCarrierClient carrier(carrier_config);
  workers::GroupConsumptionGate gate(spec.settings.kafka.brokers, spec.settings.kafka.properties,
                                     spec.settings.group_prefix);
  CarrierHold hold;  // a 429 holds every loop's hand-offs and the sweep's
  spec.periodic.push_back(
      {"the queued sweep", sweep_interval, [&](workers::WorkerContext& context) {
         workers::sweepQueued(context, carrier, hold, policy, code_secret);
       }});
  spec.periodic.push_back(
      {"the reconciler", reconciler.interval, [&](workers::WorkerContext& context) {
         workers::reconcile(context, carrier, policy, reconciler, gate);
       }});
  return workers::runWorker(spec, [&](workers::WorkerContext& context) {
    return workers::senderHandlers(
        std::make_shared<workers::SenderHandler>(context, carrier, hold, policy, code_secret));
  });
}
