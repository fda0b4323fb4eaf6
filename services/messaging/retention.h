#pragma once
// Message retention: bodies older than the retention period are purged (body null,
// body_purged true), with the held early receipts nobody claimed, expired lookups, and old
// webhook dead letters and delivery attempts; and published outbox rows. Ages are measured
// from the caller's `now`.

#include <soci/session.h>

#include "db/database.h"
#include "domain/clock.h"
#include "domain/send_policy.h"

namespace smsgw::messaging {

// Purges at most `batch` bodies; returns how many. Safe to run from any number of processes.
int purgeExpiredBodies(soci::session& sql, const SendPolicy& policy, int batch, TimePoint now);

// Deletes at most `batch` outbox rows published more than outbox_retention_hours ago; returns
// how many. Rows not yet published are never touched. Safe to run from any number of processes.
int purgePublishedOutbox(soci::session& sql, const SendPolicy& policy, int batch, TimePoint now);

// The periodic pass: every expired body and published outbox row, a batch at a time.
struct RetentionCounts {
  int bodies = 0;
  int outbox_rows = 0;
};
RetentionCounts purgeExpired(db::Database& db, const SendPolicy& policy, TimePoint now);

}  // namespace smsgw::messaging
