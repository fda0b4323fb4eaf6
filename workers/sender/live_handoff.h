#pragma once
// The LIVE hand-off to the carrier, at most once (pipeline rule 4): claimed, handed to the
// carrier, and the carrier's answer recorded, each step's writes in services/messaging/handoffs.h.
// A message whose pacing slot (send_at) has not come yet is left to the queued sweep, and so is
// one due while the carrier asked us to wait (`hold`): it is deferred to the hold's end.

#include <optional>
#include <string>
#include <vector>

#include "domain/carrier_client.h"
#include "domain/carrier_hold.h"
#include "domain/send_policy.h"
#include "services/messaging/handoffs.h"
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

// handOffLive in two halves, so a batch records the answers of all its calls in one transaction.
// The first: the hold, the claim and the carrier's call. Without a call (not due, not ours, or
// settled without one) the outcome says so; with one, its answer must be recorded next.
struct CarrierCallMade {
  HandoffOutcome outcome = HandoffOutcome::Settled;
  std::optional<messaging::CarrierAnswer> answer;
};
CarrierCallMade callCarrier(WorkerContext& context, CarrierClient& carrier, CarrierHold& hold,
                            const SendPolicy& policy, const std::string& message_id,
                            const std::string& code_secret);
// The second: the answers recorded, in one transaction; when that fails, each alone with
// retries. The carrier's answer exists only in this process until it is recorded: dropped, the
// hand-off would end STALE_QUEUED (refunded) although the text went out.
void recordAnswers(WorkerContext& context, const SendPolicy& policy,
                   const std::vector<messaging::CarrierAnswer>& answers);

}  // namespace smsgw::workers
