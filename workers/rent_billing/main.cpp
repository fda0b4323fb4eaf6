// smsgw-rent-billing: consumes billing.rent (rent collection, suspension, grace-period
// release) and runs the billing pass on a timer to publish what is due.
#include <spdlog/spdlog.h>

#include "adapters/env.h"
#include "adapters/http_carrier_client.h"
#include "services/numbers/billing_pass.h"
#include "topics/catalogue.h"
#include "workers/rent_billing/rent_handler.h"

int main() {
  using namespace smsgw;
  auto carrier_config =
      workers::configOrExit([] { return CarrierClientConfig::fromEnvironment(); });
  HttpCarrierClient carrier(carrier_config);
  numbers::RentSettings settings;
  settings.grace_period = std::chrono::hours(24 * env::getInt("RENT_GRACE_DAYS", 7));

  workers::WorkerSpec spec{"rent-billing", {std::string(topics::kBillingRent.name)}};
  spec.periodic_interval = std::chrono::milliseconds(env::getInt("RENT_PASS_INTERVAL_MS", 60000));
  spec.periodic = [&carrier](workers::WorkerContext& context) {
    numbers::BillingPassOptions options;
    options.as_of = options.now = context.clock.now();
    auto report = numbers::runBillingPass(context.db, carrier, options);
    if (report.rent_due || report.grace_expired || report.purchases_settled ||
        report.releases_finished) {
      spdlog::info(
          "billing pass: {} rent due, {} grace expired, {} purchases settled, "
          "{} releases finished",
          report.rent_due, report.grace_expired, report.purchases_settled,
          report.releases_finished);
      context.relay.notify();
    }
  };
  return workers::runWorker(spec, [&](workers::WorkerContext& context) {
    return topics::RecordHandler(workers::RentHandler(context, carrier, settings));
  });
}
