#pragma once
// Applying the carrier's receipt for a message it accepted. delivered -> DELIVERED;
// delivery_failed, expired -> UNDELIVERED (charge kept); sending_failed -> FAILED (refunded).
// Most of it is the SQL function apply_carrier_receipt (db/migrations/0008), in one round trip.
// Guarded by status, so a late or repeated receipt changes nothing. A receipt that arrives
// before the sender recorded the carrier's answer is held, and applied by the sender when it
// records that answer: receipts are applied in order.

#include <soci/session.h>

#include <string>
#include <vector>

#include "db/database.h"
#include "domain/clock.h"
#include "domain/send_policy.h"
#include "topics/records.h"

namespace smsgw::messaging {

enum class ReceiptOutcome { Applied, Unchanged, HeldEarly };

ReceiptOutcome applyReceipt(soci::session& sql, const topics::CarrierReceipt& receipt,
                            const SendPolicy& policy, TimePoint now);
// The same in a transaction of its own.
ReceiptOutcome applyReceipt(db::Database& db, const topics::CarrierReceipt& receipt,
                            const SendPolicy& policy, TimePoint now);

// Receipts the receipt worker polled together, each with the request it belongs to (its log
// lines and events name it).
struct PolledReceipt {
  topics::CarrierReceipt receipt;
  std::string request_id;
};

// Applies `polled` in one transaction, one commit for all (a commit costs about as much as the
// rest of a receipt: issue 39), and returns their outcomes in their order; all or nothing (it
// throws, and the caller applies them one at a time). They are applied in the order of their
// carrier ids (stable, so one message's receipts keep theirs): every transaction that locks
// several carrier ids then takes them in one order, and two batches never wait on each other in
// a circle for them.
std::vector<ReceiptOutcome> applyReceipts(db::Database& db,
                                          const std::vector<PolledReceipt>& polled,
                                          const SendPolicy& policy, TimePoint now);

// The sender recording the carrier's acceptance and the receipt worker applying a receipt
// both start by taking a transaction lock on the carrier message id (lock_carrier_message,
// db/migrations/0008). They are separate processes and a receipt can arrive mid-way through
// the sender's transaction. Unserialized, the receipt worker could miss the sender's
// uncommitted row, then see it committed and drop the receipt as late, or hold it after the
// sender had looked for held receipts, leaving the message SENDING for good
// (tests/integration/live_sending_test.cpp, AReceiptRacingTheSendResult...).

// Called by the sender in the transaction that records the carrier's acceptance.
void applyHeldReceipt(soci::session& sql, const std::string& carrier_message_id,
                      const SendPolicy& policy, TimePoint now);

}  // namespace smsgw::messaging
