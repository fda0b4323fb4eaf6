#pragma once
// The LIVE hand-off to the carrier, at most once (DESIGN.md rule 4): the hand-off is recorded
// before the carrier is called and the carrier's answer settles the message once. A message
// found QUEUED with a hand-off started long ago (the sender died mid-call) becomes FAILED
// STALE_QUEUED, refunded, and is never sent again: a handset gets a text at most once.
// Pacing per sending number and the carrier-counted charge settlement are the messaging
// issue's; today every LIVE message is an uncharged platform text (auto-replies, opt-in requests).

#include <string>

#include "domain/carrier_client.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

void handOffLive(WorkerContext& context, CarrierClient& carrier, const std::string& message_id);

}  // namespace smsgw::workers
