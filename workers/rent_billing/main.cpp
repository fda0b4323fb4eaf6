// smsgw-rent-billing: consumes billing.rent (rent collection, suspension, grace-period
// release) and runs the billing pass on a timer to publish what is due.
#include <spdlog/spdlog.h>

#include "adapters/http_carrier_client.h"
#include "adapters/metrics.h"
#include "adapters/settings.h"
#include "services/numbers/billing_pass.h"
#include "topics/catalogue.h"
#include "workers/rent_billing/rent_handler.h"

int main(int argc, char** argv) {
  using namespace smsgw;
  workers::WorkerSpec spec{"rent-billing", {std::string(topics::kBillingRent.name)}};
  CarrierClientConfig carrier_config;
  int grace_days = 7;
  std::chrono::milliseconds pass_interval{60000};
  ProcessSettings process("smsgw-rent-billing",
                          "Collects rent, suspends and releases numbers; runs the billing pass");
  workers::addWorkerSettings(process, spec);
  addCarrierSettings(process, carrier_config);
  process.add("RENT_GRACE_DAYS", grace_days,
              "days a suspended number waits for money before release");
  process.add("RENT_PASS_INTERVAL_MS", pass_interval, "how often the billing pass runs");
  process.parse(argc, argv);

  HttpCarrierClient carrier(carrier_config);
  numbers::RentSettings settings;
  settings.grace_period = std::chrono::hours(24 * grace_days);
  auto billing_pass = [&carrier](workers::WorkerContext& context) {
    numbers::BillingPassOptions options;
    options.as_of = options.now = context.clock.now();
    auto report = numbers::runBillingPass(context.db, carrier, options);
    metrics::releasesInDoubt(report.releases_in_doubt);
    if (report.releases_in_doubt) {
      spdlog::warn(
          "{} number release(s) unconfirmed by the carrier: no rent is charged for them, but the "
          "carrier may still bill them (smsgw-admin number releasing)",
          report.releases_in_doubt);
    }
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
  spec.periodic.push_back({"the billing pass", pass_interval, billing_pass});
  return workers::runWorker(spec, [&](workers::WorkerContext& context) {
    return topics::RecordHandler(workers::RentHandler(context, carrier, settings));
  });
}
