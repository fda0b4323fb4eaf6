#pragma once
// The stuck-work reconciler (pipeline rule 6: the broker can lose data; we can't), run by every
// sender on its own timer. What is in flight and made no progress for a set time is pushed on
// again, and what is stuck past a hand-off is settled:
// - a LIVE message whose hand-off started long ago and never ended: FAILED STALE_QUEUED,
//   refunded, never sent again (pipeline rule 4);
// - a QUEUED message due for `queued_after` that no sender took though the senders have read
//   past its record: its sms.outbound record is written again (the broker lost it);
// - a message the carrier took (SENDING) with no receipt for `sending_after`: the carrier is
//   asked for its status (LIVE) or the simulated receipt is written again (TEST), on
//   carrier.receipts, where the receipt worker applies it as any receipt;
// - an inbound text whose record left `inbound_after` ago and was never stored: published again;
// - an event owed to an active endpoint that has no attempt, retry or dead letter after
//   `events_after`: written again on the events topic (same event id: receivers dedupe).
// Every fix is claimed by an upsert in reconciler_fixes (migration 0016), so reconcilers in any
// number of senders share the work, and a thing is fixed again only after its wait. The
// consumers are idempotent, so a fix that raced the lost record's late arrival changes nothing.

#include <chrono>

#include "adapters/process_settings.h"
#include "domain/carrier_client.h"
#include "domain/send_policy.h"
#include "workers/runtime/run_worker.h"
#include "workers/sender/consumption_gate.h"

namespace smsgw::workers {

struct ReconcilerSettings {
  std::chrono::milliseconds interval{10000};
  std::chrono::seconds queued_after{60};
  std::chrono::seconds sending_after{600};
  std::chrono::seconds inbound_after{60};
  std::chrono::seconds events_after{300};
  std::chrono::seconds horizon{24 * 3600};  // older work is left alone (and outbox rows are gone)
  int batch = 200;                          // of each kind, per pass
};
void addReconcilerSettings(ProcessSettings& settings, ReconcilerSettings& reconciler);

struct ReconcilerCounts {
  int stale = 0;     // hand-offs settled STALE_QUEUED
  int in_doubt = 0;  // sends in doubt failed CARRIER_TIMEOUT at their deadline
  int queued = 0;    // sms.outbound records written again
  int sending = 0;   // receipts recovered from the carrier (or the simulation)
  int inbound = 0;   // sms.inbound records published again
  int events = 0;    // event records written again
  int total() const { return stale + in_doubt + queued + sending + inbound + events; }
};

// One pass; logs what it fixed. A queued message, an inbound text or an event is written again
// only when its topic's consumers have read past where its record was (consumption_gate.h).
ReconcilerCounts reconcile(WorkerContext& context, CarrierClient& carrier, const SendPolicy& policy,
                           const ReconcilerSettings& settings, ConsumptionGate& gate);

}  // namespace smsgw::workers
