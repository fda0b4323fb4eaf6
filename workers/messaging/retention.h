#pragma once
// Message retention: bodies older than the retention period are purged (body null,
// body_purged true), with the held early receipts nobody claimed, expired lookups, and old
// webhook dead letters and delivery attempts.

#include <soci/session.h>

#include "domain/send_policy.h"

namespace smsgw::workers {

// Purges at most `batch` bodies; returns how many. Safe to run from any number of processes.
int purgeExpiredBodies(soci::session& sql, const SendPolicy& policy, int batch);

}  // namespace smsgw::workers
