#include "workers/sender/queued_sweep.h"

#include <spdlog/spdlog.h>

#include "services/messaging/handoffs.h"
#include "workers/sender/live_handoff.h"

namespace smsgw::workers {
namespace {

constexpr int kBatch = 200;

}  // namespace

SweepCounts sweepQueued(WorkerContext& context, CarrierClient& carrier, CarrierHold& hold,
                        const SendPolicy& policy, const std::string& code_secret) {
  SweepCounts counts;
  if (hold.heldUntil(context.clock.now())) return counts;
  auto due = messaging::pacedMessagesDue(context.db, context.clock.now(), kBatch);
  for (const auto& id : due) {
    if (hold.heldUntil(context.clock.now())) break;  // a 429 in this batch: the rest stay due
    if (handOffLive(context, carrier, hold, policy, id, code_secret) == HandoffOutcome::Settled)
      ++counts.handed_off;
  }
  if (counts.handed_off)
    spdlog::info("queued sweep: {} paced messages handed off", counts.handed_off);
  return counts;
}

}  // namespace smsgw::workers
