#pragma once
// TEST sends cross the same pipeline without a carrier: SENDING at once with `message.sent`,
// then a simulated receipt on carrier.receipts (through the outbox). The TEST magic destinations
// (domain/destinations.h) simulate a carrier refusal (FAILED CARRIER_ERROR) or an undelivered
// receipt. Guarded by QUEUED, so a replayed record changes nothing.

#include <string>

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::messaging {

// In one transaction. False when the message was no longer QUEUED (a replayed record): nothing
// changed.
bool simulateTestSend(db::Database& db, const std::string& message_id, TimePoint now);

}  // namespace smsgw::messaging
