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

}  // namespace smsgw::messaging
