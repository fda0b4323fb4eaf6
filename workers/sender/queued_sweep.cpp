#include "workers/sender/queued_sweep.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <vector>

#include "workers/sender/live_handoff.h"

namespace smsgw::workers {
namespace {

constexpr int kBatch = 200;

}  // namespace

SweepCounts sweepQueued(WorkerContext& context, CarrierClient& carrier, CarrierHold& hold,
                        const SendPolicy& policy, const std::string& code_secret) {
  SweepCounts counts;
  if (hold.heldUntil(context.clock.now())) return counts;
  std::vector<std::string> due(kBatch);
  {
    db::Session sql(context.db);
    int batch = kBatch;
    std::string at = formatIso(context.clock.now());
    // A message whose slot was still to come when it was accepted (send_at after created_at) is
    // the sweep's to send once due: the consumer acknowledged its record as not due. Any other
    // message is the consumer's; sweeping those too would race the consumer for every send.
    *sql << "SELECT id FROM messages WHERE status = 'QUEUED' AND mode = 'LIVE' AND "
            "handoff_started_at IS NULL AND send_at > created_at AND send_at <= :now::timestamptz "
            "ORDER BY send_at, created_at LIMIT :n",
        soci::use(at), soci::use(batch), soci::into(due);
  }
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
