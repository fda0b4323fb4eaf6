#pragma once
// Writing to the transactional outbox (DESIGN.md rule 1). The row commits or rolls back with
// the change that caused it; topics/OutboxRelay publishes committed rows to Kafka.

#include <soci/session.h>

#include <string>

#include "db/database.h"

namespace smsgw::db {

// Returns the outbox row id.
long long enqueueOutbox(soci::session& sql, const std::string& topic, const std::string& key,
                        const std::string& payload);
// The same in a statement of its own, for a record that is the only change (a carrier callback).
long long enqueueOutbox(Database& db, const std::string& topic, const std::string& key,
                        const std::string& payload);

// What an operator watches in the database, read at each metrics scrape: the outbox rows
// committed and not yet published, the oldest one's age, and the webhook endpoints disabled.
struct OpsGauges {
  long long unpublished_rows = 0;
  double oldest_unpublished_age_seconds = 0;
  long long disabled_webhooks = 0;
};
OpsGauges readOpsGauges(Database& db);

}  // namespace smsgw::db
