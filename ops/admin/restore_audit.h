#pragma once
// `smsgw-admin restore-audit --since TIME`: run after a database restore, before the sender
// starts (docs/operations.md, "Backup and restore"). Reads the events topic from the backup's
// time on and prints what the restored database lost: events it does not hold (an accepted
// send, a status, a text received), by type and account, and the messages it holds as QUEUED
// though an event says they had left, which the sender would hand to the carrier again. With
// --settle, each of those the carrier took (a message.sent event) is recorded as the sender
// would have (messaging::settleFromSentEvent); the rest are listed for staff to decide.
// Then it reads the accounts.trail topic from the same time (services/accounts/restore_trail.h):
// the signups, API keys and money other than messages' that the restored database lost, and the
// keys it holds as active though they were revoked after the backup, which --settle revokes again.
// The topics are read by a consumer group of its own, named after the run, deleted at the end.

#include "adapters/settings.h"
#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::admin {

// Returns the exit code: 0 when the audit ran (whatever it found), 1 when the broker or the
// database could not be read, 2 without a broker to ask.
int auditRestore(db::Database& db, const KafkaSettings& kafka, TimePoint since, bool settle,
                 TimePoint now);

}  // namespace smsgw::admin
