#pragma once
// The sender's sweep over paced messages, which PostgreSQL holds (pipeline rule 5): it hands
// off LIVE messages whose pacing slot has come. A record for a paced message is acknowledged at
// once, so one busy number never holds up a partition. Any number of senders may sweep at once:
// every hand-off is claimed by a guarded update. What is stuck or lost is the reconciler's
// (reconciler.h).

#include <string>

#include "domain/carrier_client.h"
#include "domain/carrier_hold.h"
#include "domain/send_policy.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

struct SweepCounts {
  int handed_off = 0;
};

// `code_secret` opens verification codes' sealed texts (live_handoff.h). Nothing is swept while
// the carrier asked us to wait (`hold`): what is due then stays due, and goes when it ends.
SweepCounts sweepQueued(WorkerContext& context, CarrierClient& carrier, CarrierHold& hold,
                        const SendPolicy& policy, const std::string& code_secret = "");

}  // namespace smsgw::workers
