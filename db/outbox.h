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

// What waits in the outbox: rows committed and not yet published, and the oldest one's age.
struct OutboxBacklog {
  long long rows = 0;
  double oldest_age_seconds = 0;
};
OutboxBacklog outboxBacklog(Database& db);

}  // namespace smsgw::db
