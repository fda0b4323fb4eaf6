#pragma once
// Rent-billing worker handler (billing.rent): "collect" charges one rent period or suspends
// the number; "expire" releases a suspended number whose grace period ended. Each re-checks
// the number's state in PostgreSQL, so replays and stale records change nothing.

#include "domain/carrier_client.h"
#include "services/numbers/rent.h"
#include "topics/consumer_loop.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

class RentHandler {
 public:
  RentHandler(WorkerContext& context, CarrierClient& carrier, numbers::RentSettings settings)
      : context_(context), carrier_(carrier), settings_(settings) {}
  topics::Outcome operator()(const topics::Record& record);

 private:
  WorkerContext& context_;
  CarrierClient& carrier_;
  numbers::RentSettings settings_;
};

}  // namespace smsgw::workers
