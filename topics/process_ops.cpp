#include "topics/process_ops.h"

#include "adapters/metrics.h"
#include "db/outbox.h"

namespace smsgw::topics {

std::unique_ptr<OpsEndpoint> startProcessOps(const OpsEndpointConfig& config, db::Database& db,
                                             Producer& producer) {
  auto ready = [&db, &producer](std::string& why) {
    if (!db::answers(db)) {
      why = "PostgreSQL does not answer";
      return false;
    }
    if (!producer.brokerReachable(std::chrono::seconds(2))) {
      why = "no Kafka broker answers";
      return false;
    }
    return true;
  };
  auto refresh = [&db] {
    auto gauges = db::readOpsGauges(db);
    metrics::outboxBacklog(gauges.unpublished_rows, gauges.oldest_unpublished_age_seconds);
    metrics::webhooksDisabled(gauges.disabled_webhooks);
  };
  return std::make_unique<OpsEndpoint>(config, ready, refresh);
}

}  // namespace smsgw::topics
