#pragma once
// Sends whose outcome is unknown (issue 50). A 5xx, a reset connection or no answer in time
// after the request was written may hide a text Telnyx took, and Telnyx's send has no
// idempotency key: sending it again could text the handset twice, and failing it would refund a
// text that went. So the message stays QUEUED and charged, its hand-off started (no sender takes
// it again), marked in doubt. Telnyx's final receipt names the text (from, to, body), not our
// id: a receipt whose carrier id no message has is matched to the oldest send in doubt with the
// same from, to and body, which then becomes SENDING with message.sent, and the receipt applies
// as any other. A send no receipt claims within policy.in_doubt_deadline_seconds fails
// CARRIER_TIMEOUT, refunded (the reconciler does this). No carrier id is known for it, so the
// carrier cannot be asked (GET /v2/messages/{id}) meanwhile.

#include <soci/session.h>

#include "db/database.h"
#include "domain/clock.h"
#include "domain/send_policy.h"
#include "services/messaging/handoffs.h"
#include "topics/records.h"

namespace smsgw::messaging {

// Marks a claimed message in doubt, in the caller's transaction; nothing when no longer QUEUED.
// A receipt for its text may have come first (the carrier's webhook can beat its own lost
// answer) and been held as early: that receipt claims it at once.
void markInDoubt(soci::session& sql, const OutgoingMessage& message, const SendPolicy& policy,
                 TimePoint now);

// A receipt held as early (no message has its carrier id) whose from, to and body are a send
// in doubt's: that send becomes SENDING under the receipt's carrier id (message.sent, the charge
// settled on the receipt's parts), and the held receipt is applied to it, as for any acceptance
// a receipt beat. True when it did.
bool claimInDoubtByReceipt(soci::session& sql, const topics::CarrierReceipt& receipt,
                           const SendPolicy& policy, TimePoint now);

// Fails CARRIER_TIMEOUT, refunded (message.failed form a), up to `batch` sends in doubt since
// before `since_before`; returns how many.
int failInDoubtPastDeadline(db::Database& db, TimePoint since_before, int batch,
                            const SendPolicy& policy, TimePoint now);

}  // namespace smsgw::messaging
