#include "workers/sender/live_handoff.h"

#include <spdlog/spdlog.h>

#include "adapters/log.h"
#include "adapters/metrics.h"
#include "services/messaging/deferral.h"
#include "services/messaging/handoffs.h"
#include "services/verifications/verifications.h"
#include "workers/runtime/retries.h"

namespace smsgw::workers {
namespace {

HandoffOutcome outcomeOf(messaging::ClaimOutcome claim) {
  return claim == messaging::ClaimOutcome::NotDue ? HandoffOutcome::NotDue
                                                  : HandoffOutcome::NotOurs;
}

}  // namespace

CarrierCallMade callCarrier(WorkerContext& context, CarrierClient& carrier, CarrierHold& hold,
                            const SendPolicy& policy, const std::string& message_id,
                            const std::string& code_secret) {
  if (auto until = hold.heldUntil(context.clock.now())) {
    messaging::deferHandoff(context.db, message_id, *until);
    return {HandoffOutcome::NotDue, std::nullopt};
  }
  auto claim = messaging::claimHandoff(context.db, message_id, policy.stale_handoff_seconds,
                                       context.clock.now());
  if (!claim.message) {
    context.relay.notify();
    return {outcomeOf(claim.outcome), std::nullopt};
  }
  messaging::OutgoingMessage& message = *claim.message;
  if (message.verification) {
    auto text = verifications::verificationText(context.db, code_secret, message_id);
    if (!text) {
      spdlog::error("verification message {}: its code cannot be opened; not sent", message_id);
      messaging::failStaleHandoff(context.db, message_id, context.clock.now());
      context.relay.notify();
      return {HandoffOutcome::Settled, std::nullopt};
    }
    message.body = std::move(*text);
  }
  CarrierSendResult result = carrier.sendMessage(message.from, message.to, message.body);
  if (result.kind != CarrierSendResult::Kind::Accepted) {
    spdlog::warn("carrier did not take {}: {} {}", message_id, result.error_code,
                 result.error_detail);
  }
  const TimePoint answered_at = context.clock.now();
  if (result.kind == CarrierSendResult::Kind::Throttled) {
    hold.holdFor(answered_at, result.retry_after);
    spdlog::warn("carrier asked us to wait {} s: hand-offs held", result.retry_after.count());
  }
  messaging::HandoffDecision decision =
      messaging::decideHandoff(result, message.charge.cost_cents, message.part_price_cents);
  if (decision.opted_out_at_carrier) {
    metrics::carrierOptOutRefusal();
    spdlog::warn(
        "carrier refused {} for an opt-out it keeps itself: its opt-out handling is on, and a "
        "STOP to any customer's number blocks them all (docs/carrier.md, going live)",
        message_id);
  }
  // The throttled message goes when the hold ends, first among those it held (it was first).
  decision.requeue_until = answered_at + decision.requeue_after;
  return {HandoffOutcome::Settled,
          messaging::CarrierAnswer{std::move(message), std::move(result), std::move(decision),
                                   RequestScope::current()}};
}

namespace {

// One answer in a transaction of its own, with retries. A retry after a commit whose outcome
// was lost finds the message no longer QUEUED and changes nothing.
void recordAlone(WorkerContext& context, const SendPolicy& policy,
                 const messaging::CarrierAnswer& answer, TimePoint now) {
  RequestScope scope(answer.request_id);
  withRetries("recording the carrier's answer", 4, [&] {
    if (answer.message.verification) {
      verifications::recordCodeCarrierAnswer(context.db, answer.message, answer.result,
                                             answer.decision, policy, now);
    } else {
      messaging::recordCarrierAnswer(context.db, answer.message, answer.result, answer.decision,
                                     policy, now);
    }
  });
}

}  // namespace

void recordAnswers(WorkerContext& context, const SendPolicy& policy,
                   const std::vector<messaging::CarrierAnswer>& answers) {
  const TimePoint now = context.clock.now();
  // Verification codes have their own recording (they forget the code); they go alone.
  std::vector<messaging::CarrierAnswer> together;
  for (const auto& answer : answers) {
    if (answer.message.verification || answers.size() == 1) {
      recordAlone(context, policy, answer, now);
    } else {
      together.push_back(answer);
    }
  }
  if (together.size() > 1) {
    try {
      messaging::recordCarrierAnswers(context.db, together, policy, now);
      together.clear();
    } catch (const std::exception& e) {
      spdlog::warn("recording {} carrier answers together failed, each alone now: {}",
                   together.size(), e.what());
    }
  }
  for (const auto& answer : together) recordAlone(context, policy, answer, now);
  context.relay.notify();
  for (const auto& answer : answers) {
    if (answer.result.carrier_queue_wait <= std::chrono::milliseconds(0)) continue;
    try {
      db::Session sql(context.db);
      messaging::paceBehindCarrierQueue(*sql, answer.message.from,
                                        now + answer.result.carrier_queue_wait);
    } catch (const std::exception& e) {  // the answers stand; only the estimate is late
      spdlog::warn("pacing {} behind the carrier's queue failed: {}", answer.message.from,
                   e.what());
    }
  }
}

HandoffOutcome handOffLive(WorkerContext& context, CarrierClient& carrier, CarrierHold& hold,
                           const SendPolicy& policy, const std::string& message_id,
                           const std::string& code_secret) {
  CarrierCallMade call = callCarrier(context, carrier, hold, policy, message_id, code_secret);
  if (call.answer) recordAnswers(context, policy, {*call.answer});
  return call.outcome;
}

}  // namespace smsgw::workers
