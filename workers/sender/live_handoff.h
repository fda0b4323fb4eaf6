#pragma once
// The LIVE hand-off to the carrier, at most once (DESIGN.md rule 4): claimed, handed to the
// carrier, and the carrier's answer recorded, each step's writes in services/messaging/handoffs.h.
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

}  // namespace smsgw::workers
