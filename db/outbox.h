#pragma once
// Writing to the transactional outbox (pipeline rule 1). The row commits or rolls back with
// the change that caused it; topics/OutboxRelay publishes committed rows to Kafka.

#include <soci/session.h>

#include <chrono>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::db {

// Returns the outbox row id.
long long enqueueOutbox(soci::session& sql, const std::string& topic, const std::string& key,
                        const std::string& payload);
// The same in a statement of its own, for a record that is the only change (a carrier callback).
long long enqueueOutbox(Database& db, const std::string& topic, const std::string& key,
                        const std::string& payload);

// The relay's position is a commit stamp (migration 0030), and pg_dump carries the stamps'
// sequence, so a logical move (a restore from pg_dump, a logical replica promoted) keeps what
// was published apart from what was not. Rows are found by their transaction id, though, which
// means something only in the cluster that issued it: the new cluster may issue a restored
// row's id again. The leading relay calls this before it reads its position: in the cluster the
// position names, it does nothing and returns nullopt. In another one, under a lock that holds
// writers back for the moment it takes, it re-keys every row to an id this cluster never
// issues, keeping its stamp. Nothing published is published again, nothing unpublished is
// passed over, and the order holds. (A transaction here that meets a restored id before this
// runs takes the id's stamp over, so its rows are never lost; the restored rows of that id may
// then go out twice.)
struct OutboxRebase {
  long long from_cluster = 0, to_cluster = 0;  // system identifiers
  long long rows_to_publish = 0;
};
std::optional<OutboxRebase> bindOutboxToCluster(soci::session& sql, TimePoint now);

// A time before which every record of `topic` written through the outbox has been published:
// the oldest unpublished row's, or the start of the oldest transaction still running (it may yet
// commit rows stamped earlier), or now; less `margin` for the writers' clocks and the moments
// between a writer reading its clock and beginning its transaction. The database's clock.
// Reading other roles' transactions needs `pg_read_all_stats` (docs/operations.md).
TimePoint outboxPublishedThrough(Database& db, const std::string& topic,
                                 std::chrono::seconds margin);

// What an operator watches in the database, read at each metrics scrape: the outbox rows
// committed and not yet published, the oldest one's age, and the webhook endpoints disabled.
struct OpsGauges {
  long long unpublished_rows = 0;
  double oldest_unpublished_age_seconds = 0;
  long long disabled_webhooks = 0;
};
OpsGauges readOpsGauges(Database& db);

}  // namespace smsgw::db
