#pragma once
// Events owed to an active endpoint that has no attempt, retry or dead letter for them long
// after they were raised (the broker lost the record): the reconciler (workers/sender/
// reconciler.h) writes them again on the events topic, same event id, so receivers dedupe.

#include "db/database.h"
#include "db/fix_claims.h"

namespace smsgw::webhooks {

// Events raised in the window, each claimed (db/fix_claims.h); returns how many were written.
int republishUnseenEvents(db::Database& db, const db::FixWindow& window);

}  // namespace smsgw::webhooks
