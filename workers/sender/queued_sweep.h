#pragma once
// The sender's periodic sweep over queued messages, which PostgreSQL holds (DESIGN.md rules 5
// and 6): it hands off LIVE messages whose pacing slot has come (a record for a paced message
// is acknowledged at once, so one busy number never holds up a partition), fails hand-offs a
// dead sender left behind (STALE_QUEUED), and re-runs work whose Kafka record was lost.
// Any number of senders may sweep at once: every hand-off is claimed by a guarded update.

#include <string>

#include "domain/carrier_client.h"
#include "domain/send_policy.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

struct SweepCounts {
  int handed_off = 0;
  int failed_stale = 0;
  int simulated = 0;
};

// `lost_after_seconds`: a TEST message, or a LIVE one that was due when accepted, still QUEUED
// this long after it was due has lost its record (the consumer would have taken it long before).
// `code_secret` opens verification codes' sealed texts (live_handoff.h).
SweepCounts sweepQueued(WorkerContext& context, CarrierClient& carrier, const SendPolicy& policy,
                        const std::string& code_secret = "", int lost_after_seconds = 30);

}  // namespace smsgw::workers
