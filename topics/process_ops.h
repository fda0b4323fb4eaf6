#pragma once
// The operations listener of a process that has a database and a broker to work with (the API
// and every worker): /ready answers 200 while PostgreSQL answers a query and a broker answers
// a metadata request, and every scrape of /metrics first reads the outbox backlog.

#include <memory>

#include "adapters/ops_endpoint.h"
#include "db/database.h"
#include "topics/producer.h"

namespace smsgw::topics {

std::unique_ptr<OpsEndpoint> startProcessOps(const OpsEndpointConfig& config, db::Database& db,
                                             Producer& producer);

}  // namespace smsgw::topics
