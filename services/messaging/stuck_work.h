#pragma once
// What the reconciler (workers/sender/reconciler.h) reads and writes for messages stuck in
// flight (pipeline rule 6: the broker can lose data; we can't). Each fix is claimed first
// (db/fix_claims.h), so reconcilers in any number of senders share the work.

#include <string>
#include <vector>

#include "db/database.h"
#include "db/fix_claims.h"
#include "domain/clock.h"

namespace smsgw::messaging {

// LIVE messages whose hand-off started before `started_before` and never ended: FAILED
// STALE_QUEUED, refunded (handoffs.h). Returns how many.
int failStaleHandoffs(db::Database& db, TimePoint started_before, int batch, TimePoint now);

// Messages due in the window that no sender took: their sms.outbound record is written again.
int republishUntakenSends(db::Database& db, const db::FixWindow& window);

// Messages the carrier took (SENDING) in the window with no receipt since, claimed for this
// pass: the caller asks the carrier (LIVE) or the simulation (TEST) for their receipts.
struct AwaitedReceipt {
  std::string message_id, mode, to, carrier_message_id;
};
std::vector<AwaitedReceipt> claimAwaitedReceipts(db::Database& db, const db::FixWindow& window);

// Inbound texts whose record was published in the window and never stored: a copy, dated like
// it, goes after the relay's position (the row itself is never published twice).
int republishUnstoredInbound(db::Database& db, const db::FixWindow& window);

}  // namespace smsgw::messaging
