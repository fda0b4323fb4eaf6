#pragma once
// The LIVE hand-off to the carrier, at most once (DESIGN.md rule 4): the hand-off is recorded
// just before the carrier is called and the carrier's answer settles the message once. A
// message found QUEUED with a hand-off started long ago (the sender died mid-call) becomes
// FAILED STALE_QUEUED, refunded, and is never sent again: a handset gets a text at most once.
// A message whose pacing slot (send_at) has not come yet is left to the queued sweep, and so is
// one due while the carrier asked us to wait (`hold`): it is deferred to the hold's end.

#include <string>

#include "domain/carrier_client.h"
#include "domain/carrier_hold.h"
#include "domain/send_policy.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

enum class HandoffOutcome { Settled, NotDue, NotOurs };

// A verification's message (body null) is texted from its sealed code, opened with
// `code_secret` (VERIFICATION_CODE_SECRET) and forgotten once the carrier has answered; one
// whose code cannot be opened is never sent empty: it fails STALE_QUEUED, refunded.
// A 429 from the carrier holds every hand-off of this process (domain/carrier_hold.h).
HandoffOutcome handOffLive(WorkerContext& context, CarrierClient& carrier, CarrierHold& hold,
                           const SendPolicy& policy, const std::string& message_id,
                           const std::string& code_secret = "");

// FAILED STALE_QUEUED (message.failed form c), refunded; nothing when no longer QUEUED.
void failStaleHandoff(soci::session& sql, const std::string& message_id, TimePoint now);

}  // namespace smsgw::workers
