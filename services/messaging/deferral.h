#pragma once
// A LIVE message whose hand-off must wait (the carrier asked us to: domain/carrier_hold.h) is
// moved to a later slot, still QUEUED; the sender's queued sweep sends it when the slot comes,
// as it sends a paced message.

#include <soci/session.h>

#include <string>

#include "domain/clock.h"

namespace smsgw::messaging {

// Its slot (send_at) becomes `until`, never earlier than it was. Nothing for a message no
// longer QUEUED or whose hand-off has started.
void deferHandoff(soci::session& sql, const std::string& message_id, TimePoint until);

// The carrier said its own queue holds texts from `from` until `until` (Telnyx's
// wait_seconds): the number's next pacing slot is no earlier, so the sends accepted from now on
// wait in our queue, where the customer's estimated_send_at sees them, rather than in the
// carrier's, which drops what waits too long. A statement of its own (it locks the number's
// row, which a send takes before the account's): never inside the answers' transaction.
void paceBehindCarrierQueue(soci::session& sql, const std::string& from, TimePoint until);

}  // namespace smsgw::messaging
