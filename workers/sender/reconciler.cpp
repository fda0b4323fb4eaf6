#include "workers/sender/reconciler.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "adapters/metrics.h"
#include "db/outbox.h"
#include "services/messaging/handoff_decision.h"
#include "services/messaging/in_doubt.h"
#include "services/messaging/lifecycle.h"
#include "services/messaging/receipt_decision.h"
#include "services/messaging/stuck_work.h"
#include "services/webhooks/unseen_events.h"
#include "topics/catalogue.h"
#include "topics/records.h"

namespace smsgw::workers {
namespace {

// Records that leave through the outbox are examined in a window behind their wait: each is
// looked at in a few passes as it comes of age, never again (a day of events is not re-read
// every pass).
std::chrono::seconds windowOf(const ReconcilerSettings& settings) {
  auto passes = std::chrono::duration_cast<std::chrono::seconds>(settings.interval * 3);
  return std::max(passes, std::chrono::seconds(60));
}

// Stuck for `wait`, within the last `horizon`.
db::FixWindow stuckFor(std::chrono::seconds wait, std::chrono::seconds horizon,
                       const ReconcilerSettings& settings, TimePoint now) {
  return {now - wait, now - horizon, wait, settings.batch, now};
}

// The same, for work whose record travels on `topic`: only what its consumers have read past.
// Nothing while that is not known.
std::optional<db::FixWindow> stuckAndReadPast(std::chrono::seconds wait,
                                              std::chrono::seconds horizon,
                                              const ReconcilerSettings& settings, TimePoint now,
                                              WorkerContext& context, ConsumptionGate& gate,
                                              const topics::TopicSpec& topic) {
  auto read_through = gate.consumedThrough(context.db, topic);
  if (!read_through) return std::nullopt;
  db::FixWindow window = stuckFor(wait, horizon, settings, now);
  window.before = std::min(window.before, *read_through);
  return window;
}

// The receipt of a message the carrier took long ago: the carrier's word (LIVE), or the
// simulation's (TEST); nothing while the carrier has no final word.
std::optional<topics::CarrierReceipt> recoverReceipt(CarrierClient& carrier,
                                                     const messaging::AwaitedReceipt& awaited) {
  if (awaited.mode == "TEST")
    return messaging::simulateHandoff(awaited.message_id, awaited.to).receipt;
  const std::string& carrier_id = awaited.carrier_message_id;
  CarrierMessageStatus status = carrier.messageStatus(carrier_id);
  if (!status.ok || !messaging::isFinalCarrierStatus(status.status)) return std::nullopt;
  topics::CarrierReceipt receipt{carrier_id, status.status};
  if (!status.error_code.empty()) {
    receipt.errors.push_back(
        {{"code", status.error_code}, {"title", status.error_title}, {"detail", status.status}});
  }
  try {
    messaging::decideReceipt(receipt);  // a status Telnyx does not have is not published
  } catch (const topics::PermanentError&) {
    spdlog::warn("reconciler: the carrier reports {} as '{}', not a receipt status", carrier_id,
                 status.status);
    return std::nullopt;
  }
  return receipt;
}

int recoverReceipts(WorkerContext& context, CarrierClient& carrier,
                    const ReconcilerSettings& settings, TimePoint now) {
  auto claimed = messaging::claimAwaitedReceipts(
      context.db, stuckFor(settings.sending_after, settings.horizon, settings, now));
  int recovered = 0;
  for (const auto& awaited : claimed) {
    auto receipt = recoverReceipt(carrier, awaited);
    if (!receipt) continue;  // asked again after the wait
    db::enqueueOutbox(context.db, std::string(topics::kCarrierReceipts.name),
                      awaited.carrier_message_id, receipt->toJson().dump());
    ++recovered;
  }
  return recovered;
}

}  // namespace

void addReconcilerSettings(ProcessSettings& settings, ReconcilerSettings& reconciler) {
  settings.add("RECONCILER_INTERVAL_MS", reconciler.interval, "how often the reconciler runs");
  settings.add("RECONCILE_QUEUED_AFTER_SECONDS", reconciler.queued_after,
               "a due message no sender took this long has its record written again");
  settings.add("RECONCILE_SENDING_AFTER_SECONDS", reconciler.sending_after,
               "the carrier is asked for a receipt that has not come this long");
  settings.add("RECONCILE_INBOUND_AFTER_SECONDS", reconciler.inbound_after,
               "an inbound record not stored this long after it left is published again");
  settings.add("RECONCILE_EVENTS_AFTER_SECONDS", reconciler.events_after,
               "an event no endpoint it is owed to has seen this long is written again");
}

ReconcilerCounts reconcile(WorkerContext& context, CarrierClient& carrier, const SendPolicy& policy,
                           const ReconcilerSettings& settings, ConsumptionGate& gate) {
  const TimePoint now = context.clock.now();
  ReconcilerCounts counts;
  counts.stale = messaging::failStaleHandoffs(
      context.db, now - std::chrono::seconds(policy.stale_handoff_seconds), settings.batch, now);
  counts.in_doubt = messaging::failInDoubtPastDeadline(
      context.db, now - std::chrono::seconds(policy.in_doubt_deadline_seconds), settings.batch,
      policy, now);
  if (auto queued = stuckAndReadPast(settings.queued_after, settings.horizon, settings, now,
                                     context, gate, topics::kSmsOutbound))
    counts.queued = messaging::republishUntakenSends(context.db, *queued);
  counts.sending = recoverReceipts(context, carrier, settings, now);
  if (auto inbound =
          stuckAndReadPast(settings.inbound_after, settings.inbound_after + windowOf(settings),
                           settings, now, context, gate, topics::kSmsInbound))
    counts.inbound = messaging::republishUnstoredInbound(context.db, *inbound);
  if (auto events =
          stuckAndReadPast(settings.events_after, settings.events_after + windowOf(settings),
                           settings, now, context, gate, topics::kEvents))
    counts.events = webhooks::republishUnseenEvents(context.db, *events);
  metrics::reconcilerFixed("stale", counts.stale);
  metrics::reconcilerFixed("in_doubt", counts.in_doubt);
  metrics::reconcilerFixed("queued", counts.queued);
  metrics::reconcilerFixed("sending", counts.sending);
  metrics::reconcilerFixed("inbound", counts.inbound);
  metrics::reconcilerFixed("event", counts.events);
  if (counts.total() > 0) {
    spdlog::info(
        "reconciler: {} stale hand-offs settled, {} sends in doubt failed at their deadline, {} "
        "queued messages and {} events written again, {} receipts recovered, {} inbound texts "
        "published again",
        counts.stale, counts.in_doubt, counts.queued, counts.events, counts.sending,
        counts.inbound);
    context.relay.notify();
  }
  return counts;
}

}  // namespace smsgw::workers
